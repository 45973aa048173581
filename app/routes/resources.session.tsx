import { type ActionFunctionArgs } from "@remix-run/cloudflare";
import { getAuth } from "~/utils/auth-guards.server";

/** Keep-alive from the idle guard: reading the session touches it; a gone session answers 401. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await getAuth(request, context);
  return Response.json({ ok: Boolean(auth) }, { status: auth ? 200 : 401 });
}
