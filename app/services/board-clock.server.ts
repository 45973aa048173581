/**
 * Board clock readings as gateways report them in their event batches (decision 0092): `board.clock`
 * `{driftMs, tzdata, coreTzdata}`, sent when a board connects and when its reading moves. Stored per
 * device in `device_clocks` (the last reading; never back in time). A reading that raises a flag the
 * stored one did not have — drift past 30 s, zone data older than the core's — is also an activity row
 * ("Device Clock Drift", "Device Zone Data Outdated"), so alerts and the log see it.
 */
import { inArray, sql } from "drizzle-orm";
import type { ActivityEntry } from "~/utils/activity-insert.server";
import { clockFlags, TZDATA_VERSION, type ClockReading } from "~/utils/board-clock";
import { inChunks, schema, type Db } from "~/utils/db.server";
import { devicesReportedBy, NOT_SERVED } from "./gateway-cells.server";
import { checkEntries } from "./gateway-entries.server";

const ID = /^[\x21-\x7e]{1,200}$/;
/** A drift beyond a year is no clock at all; kept as a year so the row stays an integer a screen can show. */
const MAX_DRIFT_MS = 366 * 24 * 3600_000;

type Entry = ClockReading & { id: string; deviceId: number; at: number };

export const isBoardClock = (raw: unknown) => (raw as { type?: unknown } | null)?.type === "board.clock";

function check(raw: unknown): Entry | string {
  const e = raw as { id?: unknown; deviceId?: unknown; at?: unknown; data?: { driftMs?: unknown; tzdata?: unknown; coreTzdata?: unknown } };
  if (typeof e.id !== "string" || !ID.test(e.id)) return "id must be 1-200 printable characters";
  if (!Number.isSafeInteger(e.at) || (e.at as number) <= 0) return "at must be epoch milliseconds";
  if (typeof e.deviceId !== "string" || !/^\d{1,15}$/.test(e.deviceId)) return "unknown device";
  const { driftMs, tzdata, coreTzdata } = e.data ?? {};
  const version = (x: unknown) => typeof x === "string" && TZDATA_VERSION.test(x);
  if (!(driftMs === null || Number.isSafeInteger(driftMs)) || !(tzdata === null || version(tzdata)))
    return "board.clock events need data.driftMs (milliseconds or null) and data.tzdata (a tz database version or null)";
  return {
    id: e.id,
    deviceId: Number(e.deviceId),
    at: e.at as number,
    driftMs: driftMs === null ? null : Math.max(-MAX_DRIFT_MS, Math.min(MAX_DRIFT_MS, driftMs as number)),
    tzdata: tzdata as string | null,
    coreTzdata: version(coreTzdata) ? (coreTzdata as string) : "",
  };
}

const seconds = (ms: number) => Math.round(Math.abs(ms) / 1000);

/** The statements that store a batch's clock readings, the activity of the flags they raise, and what to answer. */
export async function clockStatements(db: Db, gatewayId: number, raws: unknown[], now: number) {
  const c = schema.deviceClocks;
  const { entries, rejected } = checkEntries(raws, check);
  const devices = await devicesReportedBy(db, gatewayId, [...new Set(entries.map((e) => e.deviceId))], now);
  const stored = new Map(
    (
      await inChunks([...devices.keys()], (part) =>
        db.select({ deviceId: c.deviceId, driftMs: c.driftMs, tzdata: c.tzdata, coreTzdata: c.coreTzdata, reportedAt: c.reportedAt }).from(c).where(inArray(c.deviceId, part)),
      )
    ).map((r) => [r.deviceId, r]),
  );
  const statements: unknown[] = [];
  const activity: ActivityEntry[] = [];
  let applied = 0;
  for (const e of entries.sort((a, b) => a.at - b.at)) {
    const device = devices.get(e.deviceId);
    if (!device || !device.served) {
      rejected.push({ id: e.id, reason: device ? NOT_SERVED : "unknown device" });
      continue;
    }
    applied++;
    const before = stored.get(e.deviceId);
    if (before && before.reportedAt > e.at) continue; // an older reading, late: the newer one stands
    const was = before ? clockFlags(before) : { drifted: false, staleZones: false };
    const is = clockFlags(e);
    stored.set(e.deviceId, { deviceId: e.deviceId, driftMs: e.driftMs, tzdata: e.tzdata, coreTzdata: e.coreTzdata, reportedAt: e.at });
    const values = { driftMs: e.driftMs, tzdata: e.tzdata, coreTzdata: e.coreTzdata, reportedAt: e.at, companyId: device.companyId, updatedAt: now };
    statements.push(
      db
        .insert(c)
        .values({ deviceId: e.deviceId, ...values })
        .onConflictDoUpdate({ target: c.deviceId, set: values, setWhere: sql`${c.reportedAt} <= ${e.at}` }),
    );
    const door = device.fullName || `device ${e.deviceId}`;
    const base = {
      companyId: device.companyId,
      operationType: "Device" as const,
      createdByUserId: null,
      targetUserId: null,
      targetDeviceId: e.deviceId,
      gpsLocation: null,
      at: e.at,
    };
    if (is.drifted && !was.drifted)
      activity.push({
        ...base,
        name: "Device Clock Drift",
        summary: `${door} clock is ${seconds(e.driftMs!)} s ${e.driftMs! > 0 ? "ahead" : "behind"}`,
        details: { type: "board.clock", driftMs: e.driftMs },
        eventId: `${e.id}/drift`,
      });
    if (is.staleZones && !was.staleZones)
      activity.push({
        ...base,
        name: "Device Zone Data Outdated",
        summary: `${door} decides with zone data ${e.tzdata}, older than ${e.coreTzdata}`,
        details: { type: "board.clock", tzdata: e.tzdata, coreTzdata: e.coreTzdata },
        eventId: `${e.id}/zones`,
      });
  }
  return { statements, rejected, applied, activity };
}
