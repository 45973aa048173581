import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { SUPPORT_MSG } from "~/schemas/support-access";
import { deliverQueued } from "~/services/deliver-queued.server";
import { leaveSupportSession, openSupportSession } from "~/services/support-access.server";
import { requireAuth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { supportCookie } from "~/utils/session.server";
import { redirectWithMessage } from "~/utils/toast.server";

/**
 * Opens (`intent=open`, `grant=<id>`) or leaves (`intent=leave`) a support session (decision 0093). The
 * support session has its own cookie; the staff member's own session stays and is back once it ends.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context);
  const env = context.cloudflare.env;
  const form = await request.formData();
  const db = getDb(context);
  if (form.get("intent") === "leave") {
    await leaveSupportSession(db, auth);
    const done = await redirectWithMessage({ request, context }, { to: "/fleet", ns: "supportAccess", message: SUPPORT_MSG.left });
    done.headers.append("Set-Cookie", await supportCookie(env).serialize("", { maxAge: 0 }));
    return done;
  }
  const now = nowMs();
  try {
    const opened = await openSupportSession(db, auth, Number(form.get("grant")), request, now);
    // The customer's admin hears of it now, not at the next minute's drain.
    deliverQueued(env, (p) => context.cloudflare.ctx.waitUntil(p));
    const done = await redirectWithMessage({ request, context }, { to: "/", ns: "supportAccess", message: SUPPORT_MSG.opened });
    done.headers.append("Set-Cookie", await supportCookie(env).serialize(opened.token, { expires: new Date(opened.expiresAt) }));
    return done;
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return redirectWithMessage({ request, context }, { to: "/fleet", ns: "supportAccess", message: e.message, type: "error" });
  }
}

export const loader = () => redirect("/");
