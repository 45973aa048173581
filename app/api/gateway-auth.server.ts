/**
 * The gateway API's caller (docs/gateway-api.md, "Authentication"): `Authorization: Bearer <gateway secret>`, whose
 * SHA-256 is in `gateways.secret_hash`. The dispatcher's "gateway" auth mode, beside the user sessions' "token".
 */
import { eq } from "drizzle-orm";
import { schema, type Db } from "~/utils/db.server";
import { timingSafeEqual } from "~/utils/password.server";

export const GATEWAY_MESSAGE = "A valid gateway secret is required";

const enc = new TextEncoder();
const hexToBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));

/** The stored form of a gateway secret: lower-case hex SHA-256 (db/seed/gateway.ts writes the same). */
async function gatewaySecretHash(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", enc.encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The calling gateway's id, or null. Compares against every registered gateway in constant time. */
export async function authenticateGateway(db: Db, request: Request): Promise<number | null> {
  const header = request.headers.get("Authorization") ?? "";
  const secret = header.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (!secret) return null;
  const presented = hexToBytes(await gatewaySecretHash(secret));
  const gateways = await db.select({ id: schema.gateways.id, hash: schema.gateways.secretHash }).from(schema.gateways);
  let match: number | null = null;
  for (const g of gateways) if (timingSafeEqual(presented, hexToBytes(g.hash.toLowerCase())) && match === null) match = g.id;
  return match;
}

/** Records when the gateway last called (`gateways.last_seen_at`). */
export async function gatewaySeen(db: Db, gatewayId: number, now: number): Promise<void> {
  await db.update(schema.gateways).set({ lastSeenAt: now }).where(eq(schema.gateways.id, gatewayId));
}
