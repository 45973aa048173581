/**
 * The answer to a completed single sign-on: the session cookie (the password sign-in's, rotating any session
 * the browser held) and a redirect to the console path (decision 0121). Every protocol's callback ends here.
 */
import { redirect } from "@remix-run/cloudflare";
import { dbFromEnv } from "~/utils/db.server";
import { deleteSession, readSessionToken, readSupportToken, signedInHeaders } from "~/utils/session.server";
import { sha256Hex } from "~/utils/tokens.server";
import type { SsoSignInResult } from "./complete-sign-in.server";

export async function ssoSignedInResponse(context: { cloudflare: { env: Env } }, request: Request, result: SsoSignInResult): Promise<Response> {
  const env = context.cloudflare.env;
  const db = dbFromEnv(env);
  for (const previous of [await readSessionToken(request, env), await readSupportToken(request, env)]) {
    if (previous) {
      const id = await sha256Hex(previous);
      if (id !== result.sessionId) await deleteSession(db, id);
    }
  }
  return redirect(result.redirectTo, { headers: await signedInHeaders(env, result.token) });
}
