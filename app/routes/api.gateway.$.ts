/**
 * The gateway API (docs/gateway-api.md): change feed, event ingestion, firmware download, console commands. Every call
 * carries `Authorization: Bearer <gateway secret>`; the secret's SHA-256 is in `gateways.secret_hash`.
 * Answers are JSON (except the firmware bytes); bad input is a 4xx with a message, never a 500.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import { json } from "~/api/dispatch.server";
import { claimCommands } from "~/services/device-commands.server";
import { releaseObject } from "~/services/firmware.server";
import { ingestEvents, parseBatch } from "~/services/gateway-events.server";
import { CursorExpired, parseFeedQuery, readFeed } from "~/services/gateway-feed.server";
import { getDb, nowMs, schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { timingSafeEqual } from "~/utils/password.server";

const enc = new TextEncoder();
const hexToBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));

/** The stored form of a gateway secret: lower-case hex SHA-256 (db/seed/gateway.ts writes the same). */
async function gatewaySecretHash(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", enc.encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The calling gateway's id, or null. Compares against every registered gateway in constant time. */
async function authenticate(db: Db, request: Request): Promise<number | null> {
  const header = request.headers.get("Authorization") ?? "";
  const secret = header.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (!secret) return null;
  const presented = hexToBytes(await gatewaySecretHash(secret));
  const gateways = await db.select({ id: schema.gateways.id, hash: schema.gateways.secretHash }).from(schema.gateways);
  let match: number | null = null;
  for (const g of gateways) if (timingSafeEqual(presented, hexToBytes(g.hash.toLowerCase())) && match === null) match = g.id;
  return match;
}

async function readJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text());
  } catch {
    throw new ServiceError(400, "Malformed JSON body");
  }
}

/** `{v: 1, boards: [...]}`: the ids of the boards connected to the calling gateway (docs/gateway-api.md §4). */
function parseClaim(body: unknown): string[] {
  const b = body as { v?: unknown; boards?: unknown };
  if (typeof body !== "object" || body === null || b.v !== 1) throw new ServiceError(400, "v must be 1");
  if (!Array.isArray(b.boards) || b.boards.length > 1000 || !b.boards.every((x) => typeof x === "string" && x.length <= 64)) {
    throw new ServiceError(400, "boards must be an array of at most 1000 board ids");
  }
  return b.boards as string[];
}

async function handle(request: Request, context: LoaderFunctionArgs["context"], path: string): Promise<Response> {
  const db = getDb(context);
  const env = context.cloudflare.env;
  const method = request.method.toUpperCase();
  const routes: Record<string, string> = { changes: "GET", events: "POST", "commands/claim": "POST" };
  const firmwareId = path.match(/^firmware\/([^/]+)$/)?.[1];
  const allowed = firmwareId !== undefined ? "GET" : routes[path];
  if (!allowed) return json(404, { message: `No gateway call at /api/gateway/${path}` });
  if (method !== allowed) return json(405, { message: `${method} is not allowed here` }, { Allow: allowed });

  try {
    const gatewayId = await authenticate(db, request);
    if (gatewayId === null) return json(401, { message: "A valid gateway secret is required", error: "unauthorized" });
    const now = nowMs();
    context.cloudflare.ctx.waitUntil(
      db
        .update(schema.gateways)
        .set({ lastSeenAt: now })
        .where(eq(schema.gateways.id, gatewayId))
        .then(() => undefined),
    );

    if (path === "changes") return json(200, await readFeed(db, parseFeedQuery(new URL(request.url))));
    if (path === "events") return json(200, await ingestEvents(db, parseBatch(await readJson(request)), now, gatewayId));
    if (path === "commands/claim") return json(200, { v: 1, commands: await claimCommands(db, gatewayId, parseClaim(await readJson(request)), now) });

    const id = Number(decodeURIComponent(firmwareId!));
    const found = Number.isSafeInteger(id) && id > 0 ? await releaseObject(db, env.FIRMWARE, id) : null;
    if (!found) return json(404, { message: "No such firmware release", error: "not_found" });
    return new Response(found.object.body, {
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(found.release.size),
        "X-Firmware-Sha256": found.release.sha256,
        "Cache-Control": "no-store",
      },
    });
  } catch (err) {
    if (err instanceof CursorExpired) return json(410, { message: "The feed no longer has history at this cursor; start again without one", error: "cursor_expired" });
    if (err instanceof ServiceError) return json(err.status, { message: err.message, error: "bad_request" });
    console.error(err);
    return json(500, { message: "Something went wrong on our side. Please try again." });
  }
}

export const loader = ({ request, context, params }: LoaderFunctionArgs) => handle(request, context, params["*"] ?? "");
export const action = ({ request, context, params }: ActionFunctionArgs) => handle(request, context, params["*"] ?? "");
