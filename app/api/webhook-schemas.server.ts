/**
 * The JSON Schema of each webhook event's envelope (decision 0078), generated from the zod schemas the
 * deliveries are built to (app/services/webhooks/event-payloads.ts): OpenAPI 3.1 schema objects, which are
 * JSON Schema 2020-12. Served at /api/webhook-schemas.json; the OpenAPI document carries the same as
 * `WebhookEvent_*` components.
 */
import { extendZodWithOpenApi, OpenApiGeneratorV31, OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ENVELOPE_VERSION, ENVELOPES } from "~/services/webhooks/event-payloads";

extendZodWithOpenApi(z);

/** A type's component name: `access.granted` → `WebhookEvent_access.granted`. */
export const webhookSchemaName = (type: string) => `WebhookEvent_${type}`;

/** Registers every envelope under its name in `registry`. */
export function registerWebhookSchemas(registry: OpenAPIRegistry) {
  for (const [type, schema] of Object.entries(ENVELOPES))
    registry.register(webhookSchemaName(type), schema.describe(`The body of a \`${type}\` webhook delivery (envelope version ${ENVELOPE_VERSION}).`));
}

let cached: unknown;

export function webhookSchemasDocument() {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registerWebhookSchemas(registry);
  const schemas = new OpenApiGeneratorV31(registry.definitions).generateComponents().components?.schemas ?? {};
  cached = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Keyless-access webhook events",
    description:
      "Each delivery is a POST whose JSON body is one envelope {version, type, id, occurred_at, company, data}, signed by the Standard Webhooks specification (headers webhook-id, webhook-timestamp, webhook-signature). `oneOf` lists every type; `$defs` has one schema per type.",
    version: ENVELOPE_VERSION,
    oneOf: Object.keys(ENVELOPES).map((type) => ({ $ref: `#/$defs/${webhookSchemaName(type)}` })),
    $defs: schemas,
  };
  return cached;
}
