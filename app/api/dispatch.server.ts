import type { AppLoadContext } from "@remix-run/cloudflare";
import type { ZodError, ZodTypeAny } from "zod";
import { actingAs } from "~/utils/acting-key.server";
import { authFromApiKey, isApiKey } from "~/utils/api-key-auth.server";
import { authFromToken, type Auth } from "~/utils/auth-guards.server";
import { ENROLMENT_API_PATHS, MFA_MSG } from "~/services/mfa-policy.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { issuesByField } from "~/utils/field-errors";
import { limitCaller, rateLimitHeaders, tooManyRequests, type RateLimit } from "~/utils/rate-limit.server";
import { readBearerToken, type SessionKind } from "~/utils/session.server";
import type { Endpoint, Method } from "./define.server";
import { authenticateGateway, GATEWAY_MESSAGE, gatewaySeen } from "./gateway-auth.server";
import { assertPermission } from "./permission.server";

/** The spec's message for a missing or expired token; the console shows it as 'You have been logged out'. */
export const TOKEN_MESSAGE = "Access Denied. Error Code 90";

export const json = (status: number, body: unknown, headers?: HeadersInit) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });

function firstIssue(error: ZodError) {
  const fieldErrors = issuesByField(error.issues, (path) => path.join("."));
  const first = error.issues[0];
  const where = first?.path.length ? `${first.path.join(".")}: ` : "";
  return { message: `${where}${first?.message ?? "Invalid request"}`, fieldErrors };
}

async function readBody(request: Request, e: Endpoint): Promise<unknown> {
  if (e.multipart) {
    const ct = request.headers.get("Content-Type") ?? "";
    if (!ct.includes("multipart/form-data")) throw new ServiceError(400, "Expected a multipart/form-data body");
    const form = await request.formData();
    return Object.fromEntries(form.entries());
  }
  const text = await request.text();
  if (!text.trim() && !e.bodyRequired) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError(400, "Malformed JSON body");
  }
}

function parse(schema: ZodTypeAny | undefined, value: unknown) {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (!result.success) {
    const { message, fieldErrors } = firstIssue(result.error);
    throw new ServiceError(400, message, { fieldErrors });
  }
  return result.data;
}

/** Which sessions a table accepts: a phone's session is good for the phone calls only, and they take no other. */
const CONSOLE_SESSIONS: readonly SessionKind[] = ["web", "api"];

/** How an API words the answers the dispatcher writes itself: an unknown path and a ServiceError. */
export type Dialect = {
  notFound: (pathname: string) => unknown;
  failure: (err: ServiceError) => unknown;
};

/** The admin, user and phone APIs: the spec's `{message, errorCode?, errors?, payload?}`. */
const ENVELOPE: Dialect = {
  notFound: (pathname) => ({ message: `No API call at ${pathname}` }),
  failure: (err) => {
    const { errorCode, fieldErrors, payload, extra } = err.details;
    return { message: err.message, ...(errorCode && { errorCode }), ...(fieldErrors && { errors: fieldErrors }), ...(payload !== undefined && { payload }), ...extra };
  },
};

/** `apiKeys`: the table also takes API keys (the admin API only; decision 0075), rate-limited per key and company. */
export type DispatchOptions = { sessionKinds?: readonly SessionKind[]; dialect?: Dialect; apiKeys?: boolean };

/** The values of an endpoint path's `:name` segments in `path`, or null when the path is not the endpoint's. */
function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    if (segment.startsWith(":") && got[i]) {
      try {
        params[segment.slice(1)] = decodeURIComponent(got[i]);
      } catch {
        return null;
      }
    } else if (segment !== got[i]) return null;
  }
  return params;
}

/** Serves one request against an endpoint table mounted at `base` (e.g. "/api/admin"). */
export async function dispatch(
  request: Request,
  context: AppLoadContext,
  base: string,
  table: readonly Endpoint[],
  { sessionKinds = CONSOLE_SESSIONS, dialect = ENVELOPE, apiKeys = false }: DispatchOptions = {},
): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(base.length) || "/";
  const method = request.method.toUpperCase() as Method;
  const candidates = table.flatMap((e) => {
    const params = matchPath(e.path, path);
    return params ? [{ e, params }] : [];
  });
  if (candidates.length === 0) return json(404, dialect.notFound(url.pathname));
  const match = candidates.find((c) => c.e.method === method);
  if (!match) return json(405, { message: `${method} is not allowed here` }, { Allow: candidates.map((c) => c.e.method).join(", ") });
  const { e, params } = match;

  const env = context.cloudflare.env;
  const db = getDb(context);
  const now = nowMs();
  const waitUntil = (p: Promise<unknown>) => context.cloudflare.ctx.waitUntil(p);
  // A key's calls are counted (decision 0075); every answer to one carries the limits' headers.
  let limit: RateLimit | null = null;
  const answer = (response: Response) => {
    if (limit) for (const [name, value] of Object.entries(rateLimitHeaders(limit))) response.headers.set(name, value);
    return response;
  };
  try {
    let auth: Auth | null = null;
    let gatewayId = null;
    if (e.auth === "token") {
      const token = readBearerToken(request);
      if (token && apiKeys && isApiKey(token)) {
        const found = await authFromApiKey(db, token, now);
        if (!found) return json(401, { message: TOKEN_MESSAGE, errorCode: "401" });
        auth = found.auth;
        if (found.touch) waitUntil(found.touch());
        limit = await limitCaller(env, { companyId: auth.company.id, caller: `key:${auth.apiKey!.id}` }, now);
        if (!limit.allowed) return tooManyRequests(limit);
      } else {
        auth = token && !isApiKey(token) ? await authFromToken(db, env, token, now) : null;
        if (!auth || !sessionKinds.includes(auth.session.kind)) return json(401, { message: TOKEN_MESSAGE, errorCode: "401" });
        const claimed = request.headers.get("id");
        if (claimed && claimed !== String(auth.user.id)) return json(401, { message: TOKEN_MESSAGE, errorCode: "401" });
        // A session limited to enrolment by the company's MFA policy (decision 0123) makes enrolment calls only.
        if (auth.session.mfaEnrolmentOnly && !(ENROLMENT_API_PATHS as readonly string[]).includes(e.path)) {
          return json(403, { message: MFA_MSG.enrolFirst, errorCode: "mfa-enrolment-required" });
        }
      }
      // The right before the input: a caller who may not make the call learns nothing about its body.
      await assertPermission(db, auth, e.permission);
    } else if (e.auth === "gateway") {
      gatewayId = await authenticateGateway(db, request);
      if (gatewayId === null) return json(401, { message: GATEWAY_MESSAGE, error: "unauthorized" });
      waitUntil(gatewaySeen(db, gatewayId, now));
    }
    const query = parse(e.query, Object.fromEntries(url.searchParams));
    const body = method === "GET" || method === "DELETE" ? {} : parse(e.body, await readBody(request, e));
    const result = await actingAs(auth?.apiKey, () =>
      e.handler({
        request,
        env,
        db,
        core: context.core,
        auth: auth!,
        gatewayId: gatewayId!,
        params,
        query,
        body,
        now,
        waitUntil,
      }),
    );
    if (result instanceof Response) return answer(result);
    return answer(json(200, { message: result.message ?? "Success", payload: result.payload ?? null, ...result.extra }));
  } catch (err) {
    if (err instanceof ServiceError) return answer(json(err.status, dialect.failure(err)));
    if (err instanceof Response) throw err;
    console.error(err);
    return json(500, { message: "Something went wrong on our side. Please try again." });
  }
}
