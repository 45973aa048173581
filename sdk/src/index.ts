/**
 * The keyless-access admin API client: openapi-fetch over the types generated from the API's OpenAPI
 * document (schema.d.ts), so every path, query, body and answer is checked by the compiler.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import { Webhook } from "standardwebhooks";
import type { components, paths } from "./schema";

export type { components, paths };
export type KeylessClient = Client<paths>;

export type ClientOptions = {
  /** The console's origin, e.g. `https://console.example.com` (paths begin with /api/admin). */
  baseUrl: string;
  /** An API key (`kla_…`, made in Company settings → API keys or with POST /api/admin/apiKey/createApiKey); a person's session token from /user/login also works. */
  apiKey?: string;
  /** A fetch of your own (a proxy, a test's Worker binding); the global fetch otherwise. */
  fetch?: (request: Request) => Promise<Response>;
};

/** A client for the admin API that sends `Authorization: Bearer <apiKey>` on every call (decision 0075). */
export function createClient({ baseUrl, apiKey, fetch }: ClientOptions): KeylessClient {
  return createFetchClient<paths>({
    baseUrl,
    ...(fetch && { fetch }),
    ...(apiKey && { headers: { Authorization: `Bearer ${apiKey}` } }),
  });
}

type Schemas = components["schemas"];
/** A webhook delivery's envelope `{version, type, id, occurred_at, company, data}`: one of the document's `WebhookEvent_<type>` schemas (decision 0078). */
export type WebhookEvent = { [K in keyof Schemas]: K extends `WebhookEvent_${string}` ? Schemas[K] : never }[keyof Schemas];

/**
 * Checks a webhook delivery's Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature)
 * with the endpoint's `whsec_` secret, over the raw body as received, and returns the parsed event. Throws when
 * the signature is wrong, a header is missing or the timestamp is more than five minutes from now.
 */
export function verifyWebhook(secret: string, headers: Headers | Record<string, string>, body: string): WebhookEvent {
  const plain = headers instanceof Headers ? Object.fromEntries(headers.entries()) : headers;
  return new Webhook(secret).verify(body, plain) as WebhookEvent;
}
