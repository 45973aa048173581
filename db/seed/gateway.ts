/**
 * Registers the demo gateway and gives the demo companies' boards MQTT credentials.
 *
 * - gateway `local`, secret from `GATEWAY_SECRET` (default `local-gateway-secret`), stored as its
 *   SHA-256 (hex), as app/routes/api.gateway.$.ts checks it;
 * - every ACME and BETA device: board id = the device id, password `Board#Demo2026`, stored in the
 *   format the console issues (app/utils/secret-hash.server.ts: `hmac-sha256$<salt b64>$<hash b64>`,
 *   which gateway/src/password.js verifies).
 *
 * Safe to run again: the gateway's secret is replaced, boards that already have a credential keep it.
 */
import { and, inArray, isNull } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../schema";
import { DEMO_IDS } from "./demo";
import { hashSecret } from "../../app/utils/secret-hash.server";

export const DEMO_GATEWAY = { name: "local", defaultSecret: "local-gateway-secret" } as const;
export const DEMO_BOARD_PASSWORD = "Board#Demo2026";

const enc = new TextEncoder();
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

export async function seedGateway(db: DrizzleD1Database<typeof schema>, env: { GATEWAY_SECRET?: string } = {}): Promise<void> {
  const secret = env.GATEWAY_SECRET || DEMO_GATEWAY.defaultSecret;
  const secretHash = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(secret))));
  // One hash for all demo boards: they share the documented demo password anyway.
  const boardHash = await hashSecret(DEMO_BOARD_PASSWORD);
  const companies = [DEMO_IDS.companies.ACME, DEMO_IDS.companies.BETA];
  const d = schema.devices;
  await db.batch([
    db.insert(schema.gateways).values({ name: DEMO_GATEWAY.name, secretHash }).onConflictDoUpdate({ target: schema.gateways.name, set: { secretHash } }),
    db
      .update(d)
      .set({ boardSecretHash: boardHash })
      .where(and(inArray(d.companyId, companies), isNull(d.boardSecretHash), isNull(d.deletedAt))),
  ]);
}
