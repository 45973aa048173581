/**
 * Wake-ups of a cell's gateways (docs/decisions/0118-feed-wake-ups.md): the WebSocket each gateway keeps
 * open (`GET /api/gateway/wake`, docs/gateway-api.md) and the call that tells them to read the feed now.
 */
import { inArray } from "drizzle-orm";
import { authenticateGateway, GATEWAY_MESSAGE } from "./gateway-auth.server";
import { dbFromEnv, schema } from "~/utils/db.server";
import { cellOf } from "~/services/gateway-cells.server";

export const GATEWAY_WAKE_PATH = "/api/gateway/wake";

type WakeEnv = Pick<Env, "DB" | "FEED_WAKE">;

const cellChannel = (env: WakeEnv, cell: string) => env.FEED_WAKE.get(env.FEED_WAKE.idFromName(`cell:${cell}`));

const refuse = (status: number, message: string, error: string) =>
  new Response(JSON.stringify({ message, error }), { status, headers: { "content-type": "application/json; charset=utf-8" } });

/** A gateway opening its wake-up channel: authenticated like every gateway call, then joined to its cell's object. */
export async function openGatewayWake(request: Request, env: WakeEnv): Promise<Response> {
  if (request.method !== "GET") return refuse(405, "Only GET opens the wake-up channel", "method_not_allowed");
  const db = dbFromEnv(env);
  const gatewayId = await authenticateGateway(db, request);
  if (gatewayId === null) return refuse(401, GATEWAY_MESSAGE, "unauthorized");
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return refuse(426, "The wake-up channel is a WebSocket: send Upgrade: websocket", "upgrade_required");
  return cellChannel(env, await cellOf(db, gatewayId)).fetch(request);
}

/**
 * Tells the gateways of these companies' cells to read the feed now. Best effort: a gateway that misses it
 * reads the change at its next poll, so a failure is logged, never raised.
 */
export async function wakeGateways(env: WakeEnv, companyIds: number[]): Promise<void> {
  if (companyIds.length === 0) return;
  try {
    const c = schema.companies;
    const rows = await dbFromEnv(env).selectDistinct({ cell: c.cell }).from(c).where(inArray(c.id, companyIds));
    await Promise.all(rows.map((r) => cellChannel(env, r.cell).wake()));
  } catch (e) {
    console.warn("gateway wake-up not sent; gateways read the change at their next poll", e);
  }
}
