/**
 * The SDK's walk-through: with an API key, list the company's users, give one of them an e-key on a door,
 * and verify the webhook delivery that announces it. Each step is a function so a program (or the test in
 * tests/workers/sdk-example.test.ts, against the real console Worker) runs them in order; `cli.ts` runs the
 * first three against a running console.
 */
import { createClient, verifyWebhook, type KeylessClient, type WebhookEvent } from "../src/index";

/** Signs in with an API key: every call carries `Authorization: Bearer <key>`. */
export function signIn(baseUrl: string, apiKey: string, fetch?: (request: Request) => Promise<Response>): KeylessClient {
  return createClient({ baseUrl, apiKey, fetch });
}

/** An error answer's `{message, errorCode?, errors?}`, with the status; 429 carries Retry-After. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${status}: ${(body as { message?: string } | undefined)?.message ?? "request failed"}`);
  }
}

/** The company's active users (GET /api/admin/user/getAllUsers). */
export async function listUsers(client: KeylessClient) {
  const { data, error, response } = await client.GET("/api/admin/user/getAllUsers", { params: { query: { status: "active" } } });
  if (error) throw new ApiError(response.status, error);
  return data.payload;
}

/** Gives `userId` a full-access e-key on the first door they can be given (GET getEkeys, then POST assignKeyToUser). */
export async function giveKey(client: KeylessClient, userId: number) {
  const doors = await client.GET("/api/admin/user/getEkeys", { params: { query: { userId, type: "device" } } });
  if (doors.error) throw new ApiError(doors.response.status, doors.error);
  const door = doors.data.payload[0];
  if (!door) throw new Error("The company has no configured door to give a key on");
  const given = await client.POST("/api/admin/user/assignKeyToUser", { body: { userId, eKey: door.id, type: "device", accessType: "full_access" } });
  if (given.error) throw new ApiError(given.response.status, given.error);
  return { door, entryId: given.data.payload.entryId };
}

/** A delivery your endpoint received: verified with the endpoint's `whsec_` secret before it is trusted. */
export function receiveWebhook(secret: string, headers: Record<string, string>, rawBody: string): WebhookEvent {
  return verifyWebhook(secret, headers, rawBody);
}
