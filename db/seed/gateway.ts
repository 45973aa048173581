/**
 * Registers the demo gateway and gives the demo companies' boards MQTT credentials.
 *
 * - gateway `local`, secret from `GATEWAY_SECRET` (default `local-gateway-secret`), stored as its
 *   SHA-256 (hex), as app/routes/api.gateway.$.ts checks it;
 * - every ACME and BETA device: board id = the device id, password `Board#Demo2026`, stored in the
 *   gateway's hash format (gateway/src/password.js: `pbkdf2-sha256$i=<n>$<salt b64>$<hash b64>`).
 *
 * Safe to run again: the gateway's secret is replaced, boards that already have a credential keep it.
 */
import { and, inArray, isNull } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../schema";
import { DEMO_IDS } from "./demo";

export const DEMO_GATEWAY = { name: "local", defaultSecret: "local-gateway-secret" } as const;
export const DEMO_BOARD_PASSWORD = "Board#Demo2026";
const BOARD_ITERATIONS = 100_000;

const enc = new TextEncoder();
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

async function boardSecretHash(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey("raw", enc.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: BOARD_ITERATIONS }, key, 256);
  return `pbkdf2-sha256$i=${BOARD_ITERATIONS}$${b64(salt)}$${b64(new Uint8Array(bits))}`;
}

export async function seedGateway(db: DrizzleD1Database<typeof schema>, env: { GATEWAY_SECRET?: string } = {}): Promise<void> {
  const secret = env.GATEWAY_SECRET || DEMO_GATEWAY.defaultSecret;
  const secretHash = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(secret))));
  // One hash for all demo boards: they share the documented demo password anyway.
  const boardHash = await boardSecretHash(DEMO_BOARD_PASSWORD);
  const companies = [DEMO_IDS.companies.ACME, DEMO_IDS.companies.BETA];
  const d = schema.devices;
  const pending = await db
    .select({ id: d.id, companyId: d.companyId })
    .from(d)
    .where(and(inArray(d.companyId, companies), isNull(d.boardSecretHash), isNull(d.deletedAt)));
  await db.batch([
    db.insert(schema.gateways).values({ name: DEMO_GATEWAY.name, secretHash }).onConflictDoUpdate({ target: schema.gateways.name, set: { secretHash } }),
    db.update(d).set({ boardSecretHash: boardHash }).where(and(inArray(d.companyId, companies), isNull(d.boardSecretHash), isNull(d.deletedAt))),
  ]);
}
