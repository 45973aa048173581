/**
 * A board's presence changes as activity rows, "Device Online" / "Device Offline" (decision 0082), so
 * they reach the activity log, alerts and webhooks (`device.online` / `device.offline`) by the same
 * durable path as door events: the row goes into the company's store with the gateway's entry id as its
 * event id, and the alert engine's batch writes the webhook event from it.
 *
 * A board is online while any of its gateway instances says so. Only the net change of a batch is
 * recorded, against what `device_presence` held before it: a reconnect (aedes reports the old
 * connection's disconnect, then the connect, in the same instant) or any flap within one batch writes
 * nothing. A batch sent again finds the state it already wrote and records nothing more; one that
 * failed after its rows were stored computes the same rows under the same ids, which the store skips.
 */
import { and, eq, inArray, lt } from "drizzle-orm";
import type { ActivityEntry } from "~/utils/activity-insert.server";
import { inChunks, schema, type Db } from "~/utils/db.server";

/** A presence entry that passed the checks: a board's, or a gateway instance's start (no device). */
export type PresenceEntry = { id: string; type: string; deviceId?: string; at: number; instance: string; online?: boolean };
type Board = { companyId: number; fullName: string };

const key = (gatewayId: number, instance: string) => `${gatewayId}\u0000${instance}`;

/**
 * The activity entries for the boards whose presence the batch changes. `boards`: the served devices the
 * entries name (others are rejected and change nothing).
 */
export async function presenceActivity(db: Db, gatewayId: number, entries: PresenceEntry[], boards: Map<number, Board>): Promise<ActivityEntry[]> {
  const p = schema.devicePresence;
  const d = schema.devices;
  // Boards an instance start turns offline: what that instance had online before the start.
  const starts = entries.filter((e) => e.type === "gateway.started");
  const dropped = new Map<number, Board>();
  for (const s of starts) {
    const rows = await db
      .select({ deviceId: p.deviceId, companyId: p.companyId, fullName: d.fullName })
      .from(p)
      .innerJoin(d, eq(d.id, p.deviceId))
      .where(and(eq(p.gatewayId, gatewayId), eq(p.instance, s.instance), eq(p.online, true), lt(p.since, s.at)));
    for (const r of rows) dropped.set(r.deviceId, { companyId: r.companyId, fullName: r.fullName });
  }
  const ids = [...new Set([...entries.flatMap((e) => (e.deviceId && boards.has(Number(e.deviceId)) ? [Number(e.deviceId)] : [])), ...dropped.keys()])];
  if (ids.length === 0) return [];
  // Every instance's word on each board, before this batch.
  const stored = await inChunks(ids, (part) =>
    db.select({ deviceId: p.deviceId, gatewayId: p.gatewayId, instance: p.instance, online: p.online, since: p.since }).from(p).where(inArray(p.deviceId, part)),
  );
  const state = new Map<number, Map<string, { online: boolean; since: number }>>();
  const of = (id: number) => state.get(id) ?? state.set(id, new Map()).get(id)!;
  for (const r of stored) of(r.deviceId).set(key(r.gatewayId, r.instance), { online: r.online, since: r.since });
  const online = (id: number) => [...of(id).values()].some((x) => x.online);
  const before = new Map(ids.map((id) => [id, online(id)]));
  // The entry that last moved each board, whose id and instant its row takes.
  const last = new Map<number, { id: string; at: number }>();
  const apply = (deviceId: number, k: string, isOnline: boolean, at: number, id: string) => {
    const prev = of(deviceId).get(k);
    if (prev && prev.since > at) return; // never back in time, as the stored row
    of(deviceId).set(k, { online: isOnline, since: at });
    last.set(deviceId, { id, at });
  };
  for (const e of entries) {
    if (e.type === "gateway.started") {
      for (const [deviceId, x] of state) {
        for (const [k, v] of x) if (k === key(gatewayId, e.instance) && v.online && v.since < e.at) apply(deviceId, k, false, e.at, `${e.id}/${deviceId}`);
      }
    } else if (boards.has(Number(e.deviceId))) apply(Number(e.deviceId), key(gatewayId, e.instance), e.online!, e.at, e.id);
  }
  const out: ActivityEntry[] = [];
  for (const [deviceId, moved] of last) {
    const now = online(deviceId);
    if (now === before.get(deviceId)) continue;
    const board = boards.get(deviceId) ?? dropped.get(deviceId)!;
    const door = board.fullName || `device ${deviceId}`;
    out.push({
      companyId: board.companyId,
      name: now ? "Device Online" : "Device Offline",
      operationType: "Device",
      createdByUserId: null,
      targetUserId: null,
      targetDeviceId: deviceId,
      summary: now ? `${door} came online` : `${door} went offline`,
      details: { type: "board.presence", online: now },
      gpsLocation: null,
      eventId: moved.id,
      at: moved.at,
    });
  }
  return out;
}
