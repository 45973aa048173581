/**
 * The gateway API (docs/gateway-api.md): change feed, event ingestion, firmware download, console commands. Every call
 * takes the gateway secret (auth "gateway"). Answers are the contract's own JSON, not the admin envelope (except the
 * firmware bytes); bad input is a 4xx `{message, error}`, never a 500. Not in the OpenAPI document: the registry
 * does not list this table.
 */
import { deliverQueued } from "~/services/deliver-queued.server";
import type { Dialect } from "../dispatch.server";
import { json } from "../dispatch.server";
import { endpoint, type Endpoint } from "../define.server";
import { claimCommands } from "~/services/device-commands.server";
import { releaseObject } from "~/services/firmware.server";
import { ingestEvents, parseBatch } from "~/services/gateway-events.server";
import { cellKeySet } from "~/services/credential-keys.server";
import { cellOf, deviceCell } from "~/services/gateway-cells.server";
import { CursorExpired, parseFeedQuery, readFeed } from "~/services/gateway-feed.server";
import { ServiceError } from "~/utils/errors.server";
import type { DeviceCell } from "../../../gateway/src/protocol/wire";

export const GATEWAY_BASE = "/api/gateway";

/** The contract's errors: `{message, error}`. */
export const GATEWAY_DIALECT: Dialect = {
  notFound: (pathname) => ({ message: `No gateway call at ${pathname}` }),
  failure: (err) => ({ message: err.message, error: "bad_request" }),
};

/** `{v: 1, boards: [...]}`: the ids of the boards connected to the calling gateway (docs/gateway-api.md §4). */
function parseClaim(body: unknown): string[] {
  const b = body as { v?: unknown; boards?: unknown };
  if (typeof body !== "object" || body === null || b.v !== 1) throw new ServiceError(400, "v must be 1");
  if (!Array.isArray(b.boards) || b.boards.length > 1000 || !b.boards.every((x) => typeof x === "string" && x.length <= 64)) {
    throw new ServiceError(400, "boards must be an array of at most 1000 board ids");
  }
  return b.boards as string[];
}

const tag = "Gateway";

export const gatewayEndpoints: readonly Endpoint[] = [
  endpoint({
    method: "GET",
    path: "/changes",
    summary: "Change feed (§1)",
    tag,
    auth: "gateway",
    handler: async ({ db, request, gatewayId }) => {
      try {
        return json(200, await readFeed(db, gatewayId, parseFeedQuery(new URL(request.url))));
      } catch (err) {
        if (!(err instanceof CursorExpired)) throw err;
        return json(410, { message: "The feed no longer has history at this cursor; start again without one", error: "cursor_expired" });
      }
    },
  }),
  endpoint({
    method: "POST",
    path: "/events",
    summary: "Event ingestion (§2)",
    tag,
    auth: "gateway",
    bodyRequired: true,
    handler: async ({ env, db, body, now, gatewayId, waitUntil }) => json(200, await ingestEvents(env, db, parseBatch(body), now, gatewayId, () => deliverQueued(env, waitUntil))),
  }),
  endpoint({
    method: "POST",
    path: "/commands/claim",
    summary: "Console commands for the connected boards (§4)",
    tag,
    auth: "gateway",
    bodyRequired: true,
    handler: async ({ db, body, now, gatewayId }) => json(200, { v: 1, commands: await claimCommands(db, gatewayId, parseClaim(body), now) }),
  }),
  endpoint({
    method: "GET",
    path: "/devices/:id/cell",
    summary: "The cell a device belongs to, and its MQTT endpoint (§5)",
    tag,
    auth: "gateway",
    handler: async ({ db, params }) => {
      // The device id as the feed writes it (the console's numeric id).
      if (!/^[1-9]\d{0,14}$/.test(params.id)) return json(400, { message: "deviceId must be a device id", error: "bad_request" });
      const found = await deviceCell(db, Number(params.id));
      if (!found) return json(404, { message: "No such device", error: "not_found" });
      return json(200, { v: 1, deviceId: params.id, cell: found.cell, mqttUrl: found.mqttUrl } satisfies DeviceCell);
    },
  }),
  endpoint({
    method: "GET",
    path: "/credential-keys",
    summary: "The credential keys of the gateway's cell (§6)",
    tag,
    auth: "gateway",
    handler: async ({ db, env, gatewayId }) => json(200, await cellKeySet(env, await cellOf(db, gatewayId))),
  }),
  endpoint({
    method: "GET",
    path: "/firmware/:id",
    summary: "Firmware image (§3)",
    tag,
    auth: "gateway",
    file: "application/octet-stream",
    handler: async ({ db, env, params }) => {
      const id = Number(params.id);
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
    },
  }),
];
