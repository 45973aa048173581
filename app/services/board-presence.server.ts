/**
 * Board presence as gateways report it in their event batches (decisions 0033 and 0113):
 * `board.presence` `{online}` when a board connects or disconnects, `gateway.started` when a gateway
 * instance starts (every board it had is gone). Stored per device and gateway instance in
 * `device_presence`; a batch's net change of a board's presence is also an activity row ("Device
 * Online" / "Device Offline": board-presence-activity.server.ts). Statements are conditional on the
 * instant, so a batch sent again (or late) never moves a row back in time.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import { schema, type Db } from "~/utils/db.server";
import { presenceActivity, type PresenceEntry } from "./board-presence-activity.server";
import { devicesReportedBy, NOT_SERVED } from "./gateway-cells.server";
import { checkEntries } from "./gateway-entries.server";

export const PRESENCE_TYPES = new Set(["board.presence", "gateway.started"]);

/**
 * A gateway that has not called the console for this long no longer vouches for its boards: they
 * count as offline (it polls the change feed every few seconds while it runs).
 */
export const PRESENCE_STALE_MS = 3 * 60_000;

const ID = /^[\x21-\x7e]{1,200}$/;
const INSTANCE = /^[\x21-\x7e]{1,64}$/;

type Entry = PresenceEntry;

export const isPresence = (raw: unknown) => PRESENCE_TYPES.has(String((raw as { type?: unknown } | null)?.type));

function check(raw: unknown): Entry | string {
  const e = raw as { id?: unknown; type?: string; deviceId?: unknown; at?: unknown; gatewayId?: unknown; data?: { online?: unknown } };
  if (typeof e.id !== "string" || !ID.test(e.id)) return "id must be 1-200 printable characters";
  if (!Number.isSafeInteger(e.at) || (e.at as number) <= 0) return "at must be epoch milliseconds";
  const instance = typeof e.gatewayId === "string" && INSTANCE.test(e.gatewayId) ? e.gatewayId : "";
  if (e.type === "gateway.started") return { id: e.id, type: e.type, at: e.at as number, instance };
  if (typeof e.deviceId !== "string" || !/^\d{1,15}$/.test(e.deviceId)) return "unknown device";
  if (typeof e.data?.online !== "boolean") return "board.presence events need data.online";
  return { id: e.id, type: "board.presence", deviceId: e.deviceId, at: e.at as number, instance, online: e.data.online };
}

/** The statements that record a batch's presence entries, the activity of the boards it moves, and what to answer for them. */
export async function presenceStatements(db: Db, gatewayId: number, raws: unknown[], now: number) {
  const p = schema.devicePresence;
  const { entries, rejected } = checkEntries(raws, check);
  const devices = await devicesReportedBy(db, gatewayId, [...new Set(entries.filter((e) => e.deviceId).map((e) => Number(e.deviceId)))], now);
  const statements: unknown[] = [];
  let applied = 0;
  for (const e of entries) {
    if (e.type === "gateway.started") {
      // Whatever this instance had connected before it started is gone.
      statements.push(
        db
          .update(p)
          .set({ online: false, since: e.at, updatedAt: now })
          .where(and(eq(p.gatewayId, gatewayId), eq(p.instance, e.instance), eq(p.online, true), lt(p.since, e.at))),
      );
      applied++;
      continue;
    }
    const deviceId = Number(e.deviceId);
    const device = devices.get(deviceId);
    if (!device || !device.served) {
      rejected.push({ id: e.id, reason: device ? NOT_SERVED : "unknown device" });
      continue;
    }
    const companyId = device.companyId;
    statements.push(
      db
        .insert(p)
        .values({ deviceId, gatewayId, instance: e.instance, companyId, online: e.online!, since: e.at, updatedAt: now })
        .onConflictDoUpdate({
          target: [p.deviceId, p.gatewayId, p.instance],
          set: { online: e.online!, since: e.at, companyId, updatedAt: now },
          // Never back in time; at the same instant the later report in the queue wins (a board's reconnect).
          setWhere: sql`${p.since} <= ${e.at}`,
        }),
    );
    applied++;
  }
  const boards = new Map([...devices].filter(([, d]) => d.served).map(([id, d]) => [id, d]));
  return { statements, rejected, applied, activity: await presenceActivity(db, gatewayId, entries, boards) };
}
