import { extendZodWithOpenApi, OpenApiGeneratorV3, OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { Endpoint } from "./define.server";
import { describePermission } from "./permission.server";
import { ADMIN_BASE, adminEndpoints, MOBILE_BASE, mobileEndpoints, USER_BASE, userEndpoints } from "./registry.server";

const envelope = z.object({ message: z.string(), payload: z.unknown() });
const failure = z.object({ message: z.string(), errorCode: z.string().optional(), errors: z.record(z.array(z.string())).optional() });

// The generator calls `.openapi()` on schemas; this patches it onto zod's prototype.
extendZodWithOpenApi(z);

let cached: unknown;

/** The OpenAPI 3 document, generated from the endpoint tables and their zod schemas. */
export function openApiDocument() {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "token", { type: "apiKey", in: "header", name: "Authorization" });
  const add = (base: string, e: Endpoint) =>
    registry.registerPath({
      method: e.method.toLowerCase() as "get",
      path: base + e.path,
      summary: e.summary,
      tags: [e.tag],
      security: e.auth === "token" ? [{ token: [] }] : [],
      ...(e.permission && { "x-permission": describePermission(e.permission) }),
      request: {
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
      },
    });
  adminEndpoints.forEach((e) => add(ADMIN_BASE, e));
  userEndpoints.forEach((e) => add(USER_BASE, e));
  mobileEndpoints.forEach((e) => add(MOBILE_BASE, e));
  cached = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: "3.0.3",
    info: { title: "Keyless-access admin API", version: "1.0.0", description: "Envelope {message, payload}; token in Authorization (bare or Bearer)." },
  });
  return cached;
}
