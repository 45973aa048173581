import type { AppLoadContext } from "@remix-run/cloudflare";
import type { ZodError, ZodTypeAny } from "zod";
import { authFromToken } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { issuesByField } from "~/utils/field-errors";
import { readBearerToken, type SessionKind } from "~/utils/session.server";
import type { Endpoint, Method } from "./define.server";

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
  if (!text.trim()) return {};
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

/** Serves one request against an endpoint table mounted at `base` (e.g. "/api/admin"). */
export async function dispatch(
  request: Request,
  context: AppLoadContext,
  base: string,
  table: readonly Endpoint[],
  sessionKinds: readonly SessionKind[] = CONSOLE_SESSIONS,
): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(base.length) || "/";
  const method = request.method.toUpperCase() as Method;
  const candidates = table.filter((e) => e.path === path);
  if (candidates.length === 0) return json(404, { message: `No API call at ${url.pathname}` });
  const e = candidates.find((c) => c.method === method);
  if (!e) return json(405, { message: `${method} is not allowed here` }, { Allow: candidates.map((c) => c.method).join(", ") });

  const env = context.cloudflare.env;
  const db = getDb(context);
  const now = nowMs();
  try {
    let auth = null;
    if (e.auth === "token") {
      const token = readBearerToken(request);
      auth = token ? await authFromToken(db, env, token, now) : null;
      if (!auth || !sessionKinds.includes(auth.session.kind)) return json(401, { message: TOKEN_MESSAGE, errorCode: "401" });
      const claimed = request.headers.get("id");
      if (claimed && claimed !== String(auth.user.id)) return json(401, { message: TOKEN_MESSAGE, errorCode: "401" });
    }
    const query = parse(e.query, Object.fromEntries(url.searchParams));
    const body = method === "GET" || method === "DELETE" ? {} : parse(e.body, await readBody(request, e));
    const result = await e.handler({
      request,
      env,
      db,
      core: context.core,
      auth: auth!,
      query,
      body,
      now,
      waitUntil: (p) => context.cloudflare.ctx.waitUntil(p),
    });
    if (result instanceof Response) return result;
    return json(200, { message: result.message ?? "Success", payload: result.payload ?? null, ...result.extra });
  } catch (err) {
    if (err instanceof ServiceError) {
      const { errorCode, fieldErrors, payload } = err.details;
      return json(err.status, { message: err.message, ...(errorCode && { errorCode }), ...(fieldErrors && { errors: fieldErrors }), ...(payload !== undefined && { payload }) });
    }
    if (err instanceof Response) throw err;
    console.error(err);
    return json(500, { message: "Something went wrong on our side. Please try again." });
  }
}
