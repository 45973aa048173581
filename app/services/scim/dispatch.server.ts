/**
 * /scim/v2 (RFC 7644): a directory's calls, authenticated by its company's bearer token. Every answer is
 * `application/scim+json`, every refusal SCIM's error body; nothing a directory sends gets a 5xx unless
 * the service itself fails.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { fieldsOf, fieldsQuery } from "~/services/custom-fields.server";
import { directoryOfToken } from "~/services/scim-tokens.server";
import { getDb, nowMs } from "~/utils/db.server";
import { listQuery, type ScimCall } from "./call.server";
import { resourceTypes, schemas, serviceProviderConfig } from "./discovery";
import { limitCaller, RATE_LIMIT_MESSAGE, rateLimitHeaders, tooManyRequests, type RateLimit } from "~/utils/rate-limit.server";
import { SCIM_MEDIA_TYPE, ScimError, scimErrorBody, scimErrorResponse, scimJson } from "./errors";
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from "./groups.server";
import { createScimUser, deleteScimUser, findScimUser, listScimUsers, patchScimUser, replaceScimUser, toScimUser } from "./users.server";

export const SCIM_BASE = "/scim/v2";

/** A resource answer with its version as the ETag (RFC 7644 §3.14). */
const resource = (status: number, body: { meta: { version?: string; location?: string } }) =>
  scimJson(status, body, { ...(body.meta.version && { ETag: body.meta.version }), ...(status === 201 && body.meta.location && { Location: body.meta.location }) });

async function readJson(request: Request): Promise<unknown> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type && type !== SCIM_MEDIA_TYPE && type !== "application/json") throw new ScimError(415, `Send ${SCIM_MEDIA_TYPE} or application/json`);
  const text = await request.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ScimError(400, "The body is not JSON", "invalidSyntax");
  }
}

const companyFields = async (call: ScimCall) => fieldsOf(await fieldsQuery(call.db, call.dir.companyId));

const notAllowed = (method: string) => new ScimError(405, `${method} is not supported here`);

async function route(call: ScimCall, method: string, parts: string[]): Promise<Response> {
  const { request } = call;
  const url = new URL(request.url);
  const [kind, id, ...rest] = parts;
  if (rest.length) throw new ScimError(404, `No resource at ${url.pathname}`);
  switch (kind) {
    case "ServiceProviderConfig":
      if (method !== "GET" || id) throw notAllowed(method);
      return scimJson(200, serviceProviderConfig(call.base));
    case "ResourceTypes": {
      if (method !== "GET") throw notAllowed(method);
      const all = resourceTypes(call.base, await companyFields(call));
      if (!id)
        return scimJson(200, {
          schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
          totalResults: all.length,
          startIndex: 1,
          itemsPerPage: all.length,
          Resources: all,
        });
      const one = all.find((r) => r.id === id);
      if (!one) throw new ScimError(404, `No resource type ${id}`);
      return scimJson(200, one);
    }
    case "Schemas": {
      if (method !== "GET") throw notAllowed(method);
      const all = schemas(call.base, await companyFields(call));
      if (!id)
        return scimJson(200, {
          schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
          totalResults: all.length,
          startIndex: 1,
          itemsPerPage: all.length,
          Resources: all,
        });
      const one = all.find((s) => s.id === id);
      if (!one) throw new ScimError(404, `No schema ${id}`);
      return scimJson(200, one);
    }
    case "Users":
      if (!id) {
        if (method === "GET") return scimJson(200, await listScimUsers(call, listQuery(url)));
        if (method === "POST") return resource(201, toScimUser(await createScimUser(call, await readJson(request)), call.base));
        throw notAllowed(method);
      }
      if (method === "GET") return notModifiedOr(request, toScimUser(await findScimUser(call, id), call.base));
      if (method === "PUT") return resource(200, toScimUser(await replaceScimUser(call, id, await readJson(request)), call.base));
      if (method === "PATCH") return resource(200, toScimUser(await patchScimUser(call, id, await readJson(request)), call.base));
      if (method === "DELETE") return (await deleteScimUser(call, id), scimJson(204, null));
      throw notAllowed(method);
    case "Groups":
      if (!id) {
        if (method === "GET") return scimJson(200, await listScimGroups(call, listQuery(url)));
        if (method === "POST") return resource(201, await createScimGroup(call, await readJson(request)));
        throw notAllowed(method);
      }
      if (method === "GET") return notModifiedOr(request, await getScimGroup(call, id));
      if (method === "PUT") return resource(200, await replaceScimGroup(call, id, await readJson(request)));
      if (method === "PATCH") return resource(200, await patchScimGroup(call, id, await readJson(request)));
      if (method === "DELETE") return (await deleteScimGroup(call, id), scimJson(204, null));
      throw notAllowed(method);
    default:
      throw new ScimError(404, `No resource at ${url.pathname}`);
  }
}

/** GET with If-None-Match naming the current version: 304, nothing to send again. */
function notModifiedOr(request: Request, body: { meta: { version?: string } }) {
  const tags = (request.headers.get("If-None-Match") ?? "").split(",").map((t) => t.trim());
  if (body.meta.version && tags.includes(body.meta.version)) return new Response(null, { status: 304, headers: { ETag: body.meta.version } });
  return resource(200, body);
}

const UNAUTHORIZED = { "WWW-Authenticate": 'Bearer realm="scim"' };

export async function dispatchScim(request: Request, context: AppLoadContext): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const parts = url.pathname.slice(SCIM_BASE.length).split("/").filter(Boolean);
  const db = getDb(context);
  const now = nowMs();
  // Counted per token and per company (decision 0075); every answer to a counted call carries the limits.
  let limit: RateLimit | null = null;
  const answer = (response: Response) => {
    if (limit) for (const [name, value] of Object.entries(rateLimitHeaders(limit))) response.headers.set(name, value);
    return response;
  };
  try {
    const header = request.headers.get("Authorization") ?? "";
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const found = bearer ? await directoryOfToken(db, bearer, now) : null;
    if (!found) return scimErrorResponse(new ScimError(401, "A valid directory token is required"), UNAUTHORIZED);
    if (found.touch) context.cloudflare.ctx.waitUntil(found.touch);
    // Before anything reads the body or the database for the call itself.
    limit = await limitCaller(context.cloudflare.env, { companyId: found.directory.companyId, caller: `scim:${found.directory.tokenId}` }, now);
    if (!limit.allowed) return tooManyRequests(limit, scimErrorBody(429, RATE_LIMIT_MESSAGE), SCIM_MEDIA_TYPE);
    const call: ScimCall = { db, core: context.core, dir: found.directory, now, base: `${url.origin}${SCIM_BASE}`, request };
    return answer(await route(call, method, parts));
  } catch (err) {
    if (err instanceof ScimError) return answer(scimErrorResponse(err, err.status === 405 ? { Allow: "GET, POST, PUT, PATCH, DELETE" } : undefined));
    console.error(err);
    return answer(scimErrorResponse(new ScimError(500, "Something went wrong on our side")));
  }
}
