import { z } from "zod";
import { apiKeyFormSchema, KEY_MODULES } from "~/schemas/api-keys";
import * as apiKeys from "~/services/api-keys.server";
import type { ApiKeyRow } from "~/services/api-keys.server";
import { RATE_LIMITS } from "~/utils/rate-limit.server";
import { endpoint } from "../define.server";
import { wireObject, withWireFields } from "../wire-fields.server";

const tag = "API keys";

/** The key form's fields in the admin API's names. */
const API_KEY_WIRE = {
  name: "name",
  modules: "modules",
  canAdd: "permission_add",
  canModify: "permission_modify",
  canDelete: "permission_delete",
  lifetime: "expires_in_days",
} as const;

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());
const keyPayload = (r: ApiKeyRow) => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  modules: r.modules,
  permission_add: r.canAdd,
  permission_modify: r.canModify,
  permission_delete: r.canDelete,
  created_by: r.createdBy,
  created_at: new Date(r.createdAt).toISOString(),
  expires_at: iso(r.expiresAt),
  revoked_at: iso(r.revokedAt),
  last_used_at: iso(r.lastUsedAt),
});
const keyShape = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string().describe("The key's public part: it begins `kla_<prefix>_`"),
  modules: z.array(z.enum(KEY_MODULES as [string, ...string[]])),
  permission_add: z.boolean(),
  permission_modify: z.boolean(),
  permission_delete: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable().describe(`Recorded at most once a minute`),
});

const limits = `Calls made with a key are limited to ${RATE_LIMITS.caller.limit} a minute per key and ${RATE_LIMITS.company.limit} a minute per company (all its keys).`;

export const apiKeyEndpoints = [
  endpoint({
    method: "GET",
    path: "/apiKey/getApiKeys",
    tag,
    summary: "The caller's company's API keys, newest first, revoked ones included; never a key's secret. People only: a key cannot manage keys.",
    auth: "token",
    permission: { modules: "company_settings" },
    response: z.object({ payload: z.array(keyShape) }),
    async handler({ db, auth }) {
      return { payload: (await apiKeys.listApiKeys(db, auth)).rows.map(keyPayload) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/apiKey/createApiKey",
    tag,
    summary: `Creates an API key ('API Key Created') and returns its text, shown this once: send it as \`Authorization: Bearer <key>\` on /api/admin calls, without the \`id\` header. modules (view implied) and permission_add/modify/delete are the role model's; 403 when they exceed the caller's own rights. expires_in_days: 30, 90, 365, or null or \`never\` (no expiry). The key acts with its rights within its creator's current ones. ${limits}`,
    auth: "token",
    permission: { modules: "company_settings", action: "add" },
    body: wireObject(apiKeyFormSchema, API_KEY_WIRE),
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), key: z.string(), expires_at: z.string().nullable() }) }),
    async handler({ db, auth, body, now }) {
      const r = await withWireFields(API_KEY_WIRE, () => apiKeys.createApiKey(db, auth, body, now));
      return { message: r.message, payload: { id: r.id, key: r.key, expires_at: iso(r.expiresAt) } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/apiKey/revokeApiKey",
    tag,
    summary: "Revokes an API key of the caller's company ('API Key Revoked'); calls with it are refused (401) from then on. 404 for an unknown or already revoked key.",
    auth: "token",
    permission: { modules: "company_settings", action: "delete" },
    body: z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required") }),
    response: z.object({ message: z.string() }),
    async handler({ db, auth, body, now }) {
      return await apiKeys.revokeApiKey(db, auth, body.id, now);
    },
  }),
];
