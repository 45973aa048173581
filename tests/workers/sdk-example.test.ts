/**
 * The SDK's example (sdk/examples/quickstart.ts) against the real console Worker, through the SDK's own
 * client (openapi-fetch over the generated types) with the Worker binding as its fetch: an admin makes an
 * API key and a webhook endpoint as a person would, then the example signs in with the key, lists the users,
 * gives one an e-key, and verifies the real delivery that announces it (docs/decisions/0081-typed-sdk.md).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { giveKey, listUsers, receiveWebhook, signIn } from "../../sdk/examples/quickstart";
import { createClient, type KeylessClient } from "../../sdk/src/index";
import { consoleWorker, DEMO, ORIGIN } from "./helpers";
import { RECEIVER, receivedAtLeast, wake } from "./webhook-delivery";

const viaWorker = (request: Request) => consoleWorker.fetch(request);
const HOOK = `sdk-example-${crypto.randomUUID().slice(0, 8)}`;

let admin: KeylessClient;
let apiKey: string;
let secret: string;

beforeAll(async () => {
  const signedIn = await createClient({ baseUrl: ORIGIN, fetch: viaWorker }).POST("/api/admin/user/login", { body: DEMO.acme });
  admin = createClient({ baseUrl: ORIGIN, apiKey: signedIn.data!.token, fetch: viaWorker });
  const key = await admin.POST("/api/admin/apiKey/createApiKey", {
    body: { name: "SDK example", modules: ["users"], permission_add: true, permission_modify: true, permission_delete: false, expires_in_days: "30" },
  });
  expect(key.error).toBeUndefined();
  apiKey = key.data!.payload.key;
  const hook = await admin.POST("/api/admin/webhooks/endpoints", { body: { url: `${RECEIVER}/hooks/${HOOK}`, description: "SDK example", event_types: ["key.assigned"] } });
  expect(hook.error).toBeUndefined();
  secret = hook.data!.payload.secret;
});

describe("the SDK's example against the console Worker", () => {
  it("signs in with an API key, lists users, gives an e-key and verifies the webhook that announces it", async () => {
    const client = signIn(ORIGIN, apiKey, viaWorker);
    const users = await listUsers(client);
    expect(users.map((u) => u.e_mail)).toContain("auditor@acme.example");
    const person = users.find((u) => u.e_mail === "auditor@acme.example")!;

    const { door, entryId } = await giveKey(client, person.id);
    expect(entryId).toBeGreaterThan(0);
    const assigned = await admin.GET("/api/admin/user/getAssignedEkeys", { params: { query: { userId: person.id } } });
    expect(assigned.data!.payload.map((k) => k.entry_id)).toContain(entryId);

    await wake();
    const [delivery] = await receivedAtLeast(HOOK, 1);
    const event = receiveWebhook(secret, delivery.headers, delivery.body);
    expect(event.type).toBe("key.assigned");
    expect(event.data).toMatchObject({ user: { id: person.id }, device: { id: door.id } });
    // Anything else than the body as signed, or another secret, is refused.
    expect(() => receiveWebhook(secret, delivery.headers, delivery.body.replace(`"id":${person.id}`, `"id":${person.id + 1}`))).toThrow();
    expect(() => receiveWebhook(`whsec_${btoa("another secret of 32 bytes length")}`, delivery.headers, delivery.body)).toThrow();
  });

  it("reports a refused key as the API's error answer", async () => {
    await expect(listUsers(signIn(ORIGIN, `${apiKey}x`, viaWorker))).rejects.toThrow(/^401: /);
  });
});
