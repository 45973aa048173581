import { extendZodWithOpenApi, OpenApiGeneratorV3, OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { Endpoint } from "./define.server";
import { RATE_LIMITS } from "~/utils/rate-limit.server";
import { describePermission } from "./permission.server";
import { ADMIN_BASE, adminEndpoints, MOBILE_BASE, mobileEndpoints, USER_BASE, userEndpoints } from "./registry.server";
import { registerWebhookSchemas } from "./webhook-schemas.server";

const envelope = z.object({ message: z.string(), payload: z.unknown() });
const failure = z.object({ message: z.string(), errorCode: z.string().optional(), errors: z.record(z.array(z.string())).optional() });

// The generator calls `.openapi()` on schemas; this patches it onto zod's prototype.
extendZodWithOpenApi(z);

let cached: unknown;

const perMinute = (l: { limit: number; windowMs: number }) => `${l.limit} requests per ${l.windowMs / 1000} s`;
/** The published limits (decision 0075), as the 429 answer and the document's description state them. */
const LIMITS_TEXT = `Calls made with an API key are rate-limited: ${perMinute(RATE_LIMITS.caller)} per key (policy "caller") and ${perMinute(RATE_LIMITS.company)} per company, all its keys together (policy "company"), in fixed windows. SCIM's directory tokens (\`/scim/v2\`) are counted the same way, each token a caller of its company. Every answer to a key carries \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers); over a limit the answer is 429 with \`Retry-After\` in seconds.`;
/** Webhook deliveries, for integrators reading the document (decision 0078). */
const WEBHOOKS_TEXT =
  "Webhooks (tag Webhooks): each delivery is a POST of one JSON envelope {version, type, id, occurred_at, company, data}, described per type by the `WebhookEvent_<type>` schemas below and as JSON Schema at /api/webhook-schemas.json, signed by the Standard Webhooks specification (webhook-id, webhook-timestamp, webhook-signature: v1, HMAC-SHA256 with the endpoint's whsec_ secret). Deliveries are at least once: de-duplicate by webhook-id. A failed attempt (no 2xx within 10 s) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the delivery is dead (replayable from the log); an endpoint failing for 5 days is disabled and the company's super admins are mailed.";
const limitHeaders = {
  "RateLimit-Policy": { description: 'The limits, e.g. `"caller";q=120;w=60, "company";q=600;w=60`', schema: { type: "string" as const } },
  RateLimit: { description: 'What is left and the seconds until each window ends, e.g. `"caller";r=0;t=37, "company";r=480;t=37`', schema: { type: "string" as const } },
};

/** The OpenAPI 3 document, generated from the endpoint tables and their zod schemas. */
export function openApiDocument() {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "token", { type: "apiKey", in: "header", name: "Authorization" });
  registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: `An API key (\`kla_…\`) made with /api/admin/apiKey/createApiKey, as \`Authorization: Bearer <key>\`, without the \`id\` header. ${LIMITS_TEXT}`,
  });
  const add = (base: string, e: Endpoint) => {
    // A table path's `:name` segment is an OpenAPI path parameter `{name}`, so generated clients fill it in.
    const params = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const byKey = base === ADMIN_BASE && e.auth === "token" && e.permission !== "own-account";
    registry.registerPath({
      method: e.method.toLowerCase() as "get",
      path: base + e.path.replace(/:(\w+)/g, "{$1}"),
      summary: e.summary,
      tags: [e.tag],
      security: e.auth === "token" ? [{ token: [] }, ...(byKey ? [{ apiKey: [] }] : [])] : [],
      ...(e.permission && { "x-permission": describePermission(e.permission) }),
      request: {
        ...(params.length > 0 && { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) }),
        ...(e.query && { query: e.query as z.AnyZodObject }),
        ...(e.body && {
          body: { content: { [e.multipart ? "multipart/form-data" : "application/json"]: { schema: e.body } } },
        }),
      },
      responses: {
        200: e.file
          ? { description: "The file", content: { [e.file]: { schema: { type: "string", format: "binary" } } } }
          : { description: "Success", content: { "application/json": { schema: e.response ?? envelope } } },
        400: { description: "Invalid request", content: { "application/json": { schema: failure } } },
        ...(e.auth === "token" && {
          401: { description: "Missing or expired token", content: { "application/json": { schema: failure } } },
          403: { description: "Missing permission", content: { "application/json": { schema: failure } } },
          404: { description: "Not found in the caller's company", content: { "application/json": { schema: failure } } },
        }),
        ...(byKey && {
          429: {
            description: "Over a rate limit of API keys: wait `Retry-After` seconds",
            headers: { "Retry-After": { description: "Seconds until the exhausted window ends", schema: { type: "integer" as const } }, ...limitHeaders },
            content: { "application/json": { schema: failure } },
          },
        }),
      },
    });
  };
  adminEndpoints.forEach((e) => add(ADMIN_BASE, e));
  userEndpoints.forEach((e) => add(USER_BASE, e));
  mobileEndpoints.forEach((e) => add(MOBILE_BASE, e));
  registerWebhookSchemas(registry);
  cached = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: "3.0.3",
    info: {
      title: "Keyless-access admin API",
      version: "1.0.0",
      description: `Envelope {message, payload}; a session token in Authorization (bare or Bearer), or on /api/admin an API key as a Bearer token. ${LIMITS_TEXT} ${WEBHOOKS_TEXT}`,
    },
  });
  return cached;
}
