/**
 * The body limits the README promises for the two large paths (26 MiB for firmware uploads, 8 MiB for
 * gateway event batches), written here as numbers rather than imported, so changing a limit in
 * app/utils/http.server.ts fails this test. A body of exactly the limit passes the check; one byte
 * more is refused with 413 and a message naming the limit, whether its length is declared or it
 * arrives as a stream without Content-Length, and nothing in it is stored.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleWorker, fromEveryLog, ORIGIN, schema, workerNow } from "./helpers";

const MiB = 1024 * 1024;
const LIMITS = [
  { name: "firmware upload", path: "/api/admin/ota/addota", bytes: 26 * MiB, message: "The request body is larger than 26 MiB" },
  { name: "gateway event batch", path: "/api/gateway/events", bytes: 8 * MiB, message: "The request body is larger than 8 MiB" },
];
/** A recent instant: inside the hot window whenever the suite runs (decision 0049). */
const AT = workerNow() - 3_600_000;

let serial = 0;
/** A gateway batch of one door event, padded with JSON whitespace to exactly `size` bytes. */
function eventBatch(size: number) {
  const id = `1/body-limit-${++serial}`;
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, events: [{ id, deviceId: "1", type: "door.opened", at: AT, data: {} }] }));
  const body = new Uint8Array(size).fill(0x20);
  body.set(json);
  return { id, body };
}

/** The same bytes as a stream of 1 MiB chunks: the request carries no Content-Length. */
function streamOf(body: Uint8Array): ReadableStream {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= body.byteLength) return controller.close();
      controller.enqueue(body.slice(at, at + MiB));
      at += MiB;
    },
  });
}

function post(path: string, body: BodyInit) {
  return consoleWorker.fetch(ORIGIN + path, { method: "POST", headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" }, body });
}

const stored = async (eventId: string) =>
  (await fromEveryLog((log) => log.select({ id: schema.activityLogs.id }).from(schema.activityLogs).where(eq(schema.activityLogs.eventId, eventId)))).length;

async function expectRefused(res: Response, message: string) {
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({ message });
}

describe("body limits", () => {
  it.each(LIMITS)("a $name of exactly the limit passes the size check", async ({ path, bytes }) => {
    const { body } = eventBatch(bytes);
    const res = await post(path, body);
    // Past the check the route answers for itself (the upload refuses the gateway secret with 401).
    expect(res.status).not.toBe(413);
    await res.body?.cancel();
  });

  it.each(LIMITS)("a $name one byte over its declared length is refused with 413", async ({ path, bytes, message }) => {
    const { id, body } = eventBatch(bytes + 1);
    await expectRefused(await post(path, body), message);
    expect(await stored(id)).toBe(0);
  });

  it.each(LIMITS)("a $name streamed without Content-Length one byte over is refused with 413", async ({ path, bytes, message }) => {
    const { id, body } = eventBatch(bytes + 1);
    await expectRefused(await post(path, streamOf(body)), message);
    expect(await stored(id)).toBe(0);
  });

  it.each(["declared", "streamed"])("a gateway batch of exactly the limit, its length %s, is read and stored", async (how) => {
    const { id, body } = eventBatch(8 * MiB);
    const res = await post("/api/gateway/events", how === "streamed" ? streamOf(body) : body);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: 1, rejected: [] });
    expect(await stored(id)).toBe(1);
  });
});
