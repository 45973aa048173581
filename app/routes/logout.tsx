import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { logout } from "~/services/auth.server";
import { getAuth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { sessionCookie } from "~/utils/session.server";

/** Ends the session (recording 'User Logs Out' once) and clears the cookie; the language cookie stays. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const reason = form.get("reason") === "idle" ? "idle" : "user";
  const auth = await getAuth(request, context);
  if (auth) await logout(getDb(context), auth, nowMs(), reason);
  return redirect("/login", {
    headers: { "Set-Cookie": await sessionCookie(context.cloudflare.env).serialize("", { maxAge: 0 }) },
  });
}

export const loader = () => redirect("/");
