/**
 * Board events delivered by gateways (`POST /api/gateway/events`) become activity rows.
 *
 * Idempotent by event id: rows go in with `ON CONFLICT (event_id) DO NOTHING RETURNING`, so a batch
 * re-sent after a gateway crash creates nothing twice and the answer still counts it as delivered.
 * The company always comes from the device record, never from the payload (for a device transferred
 * within the last day, the company it had when the event happened: decision 0074). An event the Worker
 * cannot place (unknown device, malformed entry, type without a catalogue name) is reported in
 * `rejected` instead of failing the batch: one poison event must not block the gateway's queue (the
 * gateway keeps it in its dead-letter file and offers it again later).
 * Device state (last activity, battery, location, firmware), one-time keys a gateway spent and a
 * company's first person in (sent on to every gateway) are updated in the same D1 batch with
 * statements that are safe to run again.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { commandResultStatements } from "~/services/device-commands.server";
import { ingestActivity } from "~/services/activity-ingest.server";
import type { ActivityEntry } from "~/utils/activity-insert.server";
import type { CompanyLogEnv } from "~/utils/company-log.server";
import { inChunks, schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import type { EventBatchResult, WireEvent } from "../../gateway/src/protocol/wire";
import { isPresence, presenceStatements } from "./board-presence.server";
import { clockStatements, isBoardClock } from "./board-clock.server";
import { alarmEntries, alarmStatements, type AlarmEvent } from "./door-alarm-events.server";
import { companyAt, devicesReportedBy, NOT_SERVED } from "./gateway-cells.server";
import { checkRollouts } from "./firmware-rollouts.server";
import { panicPressed } from "./lockdown.server";
import { passEntryStatements } from "./visitor-passes.server";

export const MAX_EVENTS = 1000;

/** A checked event: the wire event's fields the console records. */
export type GatewayEvent = Pick<WireEvent, "id" | "deviceId" | "type" | "at" | "data">;
export type IngestResult = Required<EventBatchResult>;

type Device = { id: number; companyId: number; fullName: string };
type Mapped = { name: string; summary: string; targetUserId?: number | null; gps?: string };

const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
const sensorNumber = (name: unknown) => (/2/.test(String(name)) ? 2 : 1);

/**
 * Sensor events (gateway/PROTOCOL.md): `sensor.contact` `{input: 1|2, state: "open"|"closed"}` is a
 * contact input and becomes "Sensor N Open/Closed"; `sensor.measurement` `{name, value, unit?}` is a
 * reading and becomes "Sensor Reading". Version 1's `sensor` is a contact only when it says so
 * (`state`, or a boolean `value`); a number is a reading, as the protocol's example always meant.
 */
function contact(n: number, open: boolean, door: string): Mapped {
  return { name: `Sensor ${n} ${open ? "Open" : "Closed"}`, summary: `Sensor ${n} ${open ? "open" : "closed"} at ${door}` };
}

function reading(d: Record<string, unknown>, door: string): Mapped | string {
  const value = num(d.value);
  if (typeof d.name !== "string" || !d.name || value === undefined) return "sensor.measurement events need data.name and a numeric data.value";
  const unit = typeof d.unit === "string" && d.unit ? ` ${d.unit.slice(0, 16)}` : "";
  return { name: "Sensor Reading", summary: `${d.name.slice(0, 64)} ${value}${unit} at ${door}` };
}

/**
 * Gateway event type → activity catalogue name (db/migrations/0001_reference_data.sql). `guest`: the name on
 * the visitor pass the event names, when the pass is the door's company's.
 */
function mapEvent(e: GatewayEvent, device: Device, guest: string | null): Mapped | string {
  const d = e.data;
  const door = device.fullName || `device ${device.id}`;
  switch (e.type) {
    case "access.granted":
    case "access.denied": {
      const granted = e.type === "access.granted";
      const reason = typeof d.reason === "string" ? d.reason : "";
      // A guest is no user: the entry names the visitor pass (decision 0096).
      const pass = passIdOf(d) ? ` with visitor pass ${d.keyId}${guest ? ` (${guest})` : ""}` : "";
      return { name: granted ? "Access Granted" : "Access Denied", summary: `${granted ? "Access granted" : "Access denied"} at ${door}${pass}${reason ? `: ${reason}` : ""}` };
    }
    case "door.opened":
      return { name: "Door Opened", summary: `${door} opened` };
    case "door.closed":
      return { name: "Door Closed", summary: `${door} closed` };
    case "door.forced":
      return { name: "Door Forced Open", summary: `${door} forced open` };
    case "door.heldOpen":
      return { name: "Door Held Open", summary: `${door} held open` };
    case "sensor.contact": {
      if ((d.input !== 1 && d.input !== 2) || (d.state !== "open" && d.state !== "closed")) return "sensor.contact events need data.input (1 or 2) and data.state";
      return contact(d.input, d.state === "open", door);
    }
    case "sensor.measurement":
      return reading(d, door);
    case "sensor": {
      if (d.state === "open" || d.state === "closed") return contact(sensorNumber(d.name), d.state === "open", door);
      if (typeof d.value === "boolean") return contact(sensorNumber(d.name), d.value, door);
      return reading(d, door);
    }
    case "battery": {
      const percent = num(d.percent);
      if (percent === undefined) return "battery events need data.percent";
      return { name: percent < LOW_BATTERY ? "Low Battery" : "Battery Good", summary: `Battery at ${percent}% on ${door}` };
    }
    case "location": {
      const lat = num(d.lat);
      const lon = num(d.lon);
      if (lat === undefined || lon === undefined) return "location events need data.lat and data.lon";
      return { name: "Location Reported", summary: `${door} reported its location`, gps: `${lat},${lon}` };
    }
    case "panic.pressed":
      // A wired panic button: logged always; it starts the plan naming this door (lockdown.server.ts `panicPressed`).
      return { name: "Panic Button Pressed", summary: `Panic button pressed at ${door}` };
    case "tamper":
      return { name: "Tamper Detected", summary: `Tamper ${d.state === "closed" ? "cleared" : "detected"} on ${door}` };
    case "firmware.progress":
      return { name: "Firmware Progress", summary: `Firmware ${String(d.version ?? "")} download at ${num(d.percent) ?? 0}% on ${door}` };
    case "command.result": {
      // `cmd` is the id the command was sent with (PROTOCOL.md), kept in the details, not the summary; the board may say why it failed.
      const cmd = typeof d.cmd === "string" ? d.cmd : "";
      if (!cmd || typeof d.ok !== "boolean") return "command.result events need data.cmd and data.ok";
      return d.ok
        ? { name: "Command Succeeded", summary: `Remote command succeeded on ${door}` }
        : { name: "Command Failed", summary: `Remote command failed on ${door}${typeof d.error === "string" ? `: ${d.error.slice(0, 200)}` : ""}` };
    }
    case "schedule.firstEntry":
      return { name: "Scheduled Open Started", summary: `Scheduled open started at ${door}: first person in` };
    case "firmware.result":
      return d.ok === true
        ? { name: "Firmware Installed", summary: `Firmware installed on ${door}` }
        : { name: "Firmware Failed", summary: `Firmware failed on ${door}${typeof d.error === "string" ? `: ${d.error}` : ""}` };
    default:
      return `event type ${e.type} is not recorded`;
  }
}

/** The visitor pass an access event names (`keyKind: "pass"`, `keyId: "v<id>"`), or null. */
function passIdOf(d: Record<string, unknown>): number | null {
  const m = d.keyKind === "pass" && typeof d.keyId === "string" ? /^v(\d{1,15})$/.exec(d.keyId) : null;
  return m ? Number(m[1]) : null;
}

const LOW_BATTERY = 20;
const ID = /^[\x21-\x7e]{1,200}$/;
/** The id a rejected entry is reported under: its own when it is a string, else null. */
const idOf = (raw: unknown) => (typeof (raw as { id?: unknown })?.id === "string" ? (raw as { id: string }).id : null);

/** Checks the envelope; a bad one is a 400 (the gateway logs it), entries are checked one by one. */
export function parseBatch(body: unknown): unknown[] {
  const b = body as { v?: unknown; events?: unknown };
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ServiceError(400, "body must be a JSON object");
  if (b.v !== 1) throw new ServiceError(400, "v must be 1");
  if (!Array.isArray(b.events)) throw new ServiceError(400, "events must be an array");
  if (b.events.length > MAX_EVENTS) throw new ServiceError(400, `at most ${MAX_EVENTS} events per batch`);
  return b.events;
}

function checkEvent(x: unknown): GatewayEvent | string {
  const e = x as Partial<GatewayEvent>;
  if (typeof x !== "object" || x === null) return "event must be an object";
  if (typeof e.id !== "string" || !ID.test(e.id)) return "id must be 1-200 printable characters";
  if (typeof e.deviceId !== "string" || !/^\d{1,15}$/.test(e.deviceId)) return "unknown device";
  if (typeof e.type !== "string") return "type must be a string";
  if (!Number.isSafeInteger(e.at) || (e.at as number) <= 0) return "at must be epoch milliseconds";
  const data = e.data ?? {};
  if (typeof data !== "object" || data === null || Array.isArray(data)) return "data must be an object";
  return { id: e.id, deviceId: e.deviceId, type: e.type, at: e.at as number, data: data as Record<string, unknown> };
}

/**
 * `gatewayId`: the authenticated caller, whose board presence entries are recorded. `messagesQueued`: told when
 * the batch queued mail or a text (a guest's first entry, for the host), so the caller sends it now rather than at the cron.
 */
export async function ingestEvents(env: CompanyLogEnv, db: Db, rawEvents: unknown[], now: number, gatewayId?: number, messagesQueued?: () => void): Promise<IngestResult> {
  const presence = gatewayId === undefined ? null : await presenceStatements(db, gatewayId, rawEvents.filter(isPresence), now);
  const clocks = gatewayId === undefined ? null : await clockStatements(db, gatewayId, rawEvents.filter(isBoardClock), now);
  const rejected: IngestResult["rejected"] = [...(presence?.rejected ?? []), ...(clocks?.rejected ?? [])];
  const events: GatewayEvent[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const raw of rawEvents) {
    if (presence && isPresence(raw)) continue;
    if (clocks && isBoardClock(raw)) continue;
    const e = checkEvent(raw);
    if (typeof e === "string") rejected.push({ id: idOf(raw), reason: e });
    else if (seen.has(e.id))
      duplicates++; // the same id twice in one batch
    else {
      seen.add(e.id);
      events.push(e);
    }
  }

  const devices = await devicesReportedBy(db, gatewayId, [...new Set(events.map((e) => Number(e.deviceId)))], now);
  const users = await companyOfUsers(db, events);
  const guests = await guestsOfPasses(db, events);

  const rows: ActivityEntry[] = [];
  const state = new DeviceState();
  const commandResults: Parameters<typeof commandResultStatements>[1][number][] = [];
  const panics: Parameters<typeof panicPressed>[1][] = [];
  const alarmEvents: AlarmEvent[] = [];
  for (const e of events) {
    const device = devices.get(Number(e.deviceId));
    if (!device || !device.served) {
      rejected.push({ id: e.id, reason: device ? NOT_SERVED : "unknown device" });
      continue;
    }
    const companyId = companyAt(device, e.at);
    const pass = guests.get(passIdOf(e.data) ?? 0);
    const guest = pass && pass.companyId === companyId ? pass.name : null;
    const m = mapEvent(e, device, guest);
    if (typeof m === "string") {
      rejected.push({ id: e.id, reason: m });
      continue;
    }
    const userId = Number(e.data.userId);
    const targetUserId = users.get(userId) === companyId ? userId : null;
    rows.push({
      companyId,
      name: m.name,
      operationType: "Device",
      createdByUserId: targetUserId,
      targetUserId,
      targetDeviceId: device.id,
      summary: m.summary,
      details: { ...e.data, type: e.type, receivedAt: now, ...(guest && { guest }) },
      gpsLocation: m.gps ?? null,
      eventId: e.id,
      at: e.at,
    });
    state.note(e, device, companyId);
    alarmEvents.push({ e, deviceId: device.id, companyId, heldOpenSeconds: device.heldOpenSeconds, forcedAlarm: device.forcedAlarm, door: doorStateOf(e) });
    if (e.type === "panic.pressed") panics.push({ id: e.id, at: e.at, companyId, deviceId: device.id, door: device.fullName || `device ${device.id}` });
    if (e.type === "command.result") commandResults.push({ deviceId: device.id, cmd: e.data.cmd, ok: e.data.ok === true, error: e.data.error });
  }

  const presenceWrites = [...(presence?.statements ?? []), ...(clocks?.statements ?? [])];
  if (rows.length === 0 && presenceWrites.length === 0) return { accepted: 0, duplicates, rejected };
  // The log first: a batch that fails after it is sent again, and the stores skip what they hold. The
  // device facts it carries are written with statements that are harmless to repeat.
  const inserted = await ingestActivity(env, db, rows, "Device", now);
  // Presence changes go to the log before the presence rows they are computed against (not counted: their entries are).
  await ingestActivity(env, db, [...(presence?.activity ?? []), ...(clocks?.activity ?? [])], "Device", now);
  const alarms = alarmStatements(db, alarmEvents, now);
  const passWrites = await passEntryStatements(db, state.passEntries, now);
  const facts = [
    ...state.statements(db, now),
    ...passWrites,
    ...commandResultStatements(db, commandResults, now),
    ...presenceWrites,
    ...(alarms ? [...alarms.statements, ...alarms.readBacks] : []),
  ];
  if (facts.length > 0) {
    const results = await db.batch(facts as unknown as [never, ...never[]]);
    if (alarms) {
      const name = (id: number) => devices.get(id)?.fullName || `device ${id}`;
      const readBack = results.slice(results.length - alarms.readBacks.length).flat();
      await ingestActivity(env, db, alarmEntries(readBack as never, alarms.ids, name), "Device", now);
    }
  }
  if (passWrites.length > 0) messagesQueued?.();
  // A panic button starts its plan; an event sent again starts nothing (its id is the start's guard).
  for (const panic of panics) await panicPressed(db, panic, now);
  // A result may pause a staged rollout at once (decision 0094); opening waves is the cron's.
  const results = [...new Set(events.filter((e) => e.type === "firmware.result").map((e) => Number(e.data.releaseId)))].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (results.length > 0) await checkRollouts(db, now, { releaseIds: results, openWaves: false });
  // Presence entries are stored state, not rows: counted as accepted, never as duplicates.
  return { accepted: (presence?.applied ?? 0) + (clocks?.applied ?? 0) + inserted, duplicates: duplicates + rows.length - inserted, rejected };
}

/** The companies of users named in access events, so a user id is only linked inside its own company. */
async function companyOfUsers(db: Db, events: GatewayEvent[]): Promise<Map<number, number>> {
  const ids = [...new Set(events.map((e) => Number(e.data.userId)).filter((n) => Number.isSafeInteger(n) && n > 0))];
  const out = new Map<number, number>();
  const rows = await inChunks(ids, (part) => db.select({ id: schema.users.id, companyId: schema.users.companyId }).from(schema.users).where(inArray(schema.users.id, part)));
  for (const r of rows) out.set(r.id, r.companyId);
  return out;
}

/** The guests named by the visitor passes the events present (a guest is no user: the log names them from the pass). */
async function guestsOfPasses(db: Db, events: GatewayEvent[]): Promise<Map<number, { name: string; companyId: number }>> {
  const ids = [...new Set(events.map((e) => passIdOf(e.data)).filter((n): n is number => n != null))];
  const v = schema.visitorPasses;
  const rows = await inChunks(ids, (part) => db.select({ id: v.id, name: v.guestName, companyId: v.companyId }).from(v).where(inArray(v.id, part)));
  return new Map(rows.map((r) => [r.id, { name: r.name, companyId: r.companyId }]));
}

/** The door's contact: input 1 of `sensor.contact` (version 1's `sensor` named 1), or the door events. */
function doorStateOf(e: GatewayEvent): "open" | "closed" | null {
  const d = e.data;
  if (e.type === "door.opened" || e.type === "door.forced" || e.type === "door.heldOpen") return "open";
  if (e.type === "door.closed") return "closed";
  const input = e.type === "sensor.contact" ? d.input : e.type === "sensor" ? sensorNumber(d.name) : null;
  if (input !== 1) return null;
  if (d.state === "open" || d.state === "closed") return d.state;
  return e.type === "sensor" && typeof d.value === "boolean" ? (d.value ? "open" : "closed") : null;
}

/** `at`: when the gateway timed the install's result (a rollout's health reads it, decision 0094). */
type Progress = { deviceId: number; companyId: number; releaseId: number; done: number; total: number; state: "downloading" | "installed" | "failed"; detail: string; at?: number };

/** The latest device facts in a batch, written with statements that are harmless to repeat. */
class DeviceState {
  lastAt = new Map<number, number>();
  battery = new Map<number, { at: number; low: boolean }>();
  location = new Map<number, { at: number; lat: number; lon: number }>();
  door = new Map<number, { at: number; state: "open" | "closed" }>();
  progress = new Map<string, Progress>();
  installed = new Map<number, number>();
  /** the latest first-person-in entry per company */
  firstEntry = new Map<number, number>();
  /** e-keys that opened a door, by key id: a one-time key among them is used from then on */
  opened = new Map<number, { at: number; companyId: number }>();
  /** visitor passes that opened a door, by pass id: the first entry (the host is told), a one-entry pass spent */
  passEntries = new Map<number, { at: number; companyId: number; door: string }>();

  /** `companyId`: the company the event belongs to (companyAt); the device's own facts stay on the device. */
  note(e: GatewayEvent, device: Device, companyId: number) {
    const id = device.id;
    this.lastAt.set(id, Math.max(this.lastAt.get(id) ?? 0, e.at));
    const d = e.data;
    const keyId = Number(d.keyId);
    if (e.type === "access.granted" && d.keyKind === "ekey" && Number.isSafeInteger(keyId) && keyId > 0 && !this.opened.has(keyId)) {
      this.opened.set(keyId, { at: e.at, companyId });
    }
    const passId = e.type === "access.granted" ? passIdOf(d) : null;
    if (passId != null && (this.passEntries.get(passId)?.at ?? Infinity) > e.at) this.passEntries.set(passId, { at: e.at, companyId, door: device.fullName || `device ${id}` });
    if (e.type === "battery" && (this.battery.get(id)?.at ?? 0) <= e.at) this.battery.set(id, { at: e.at, low: (num(d.percent) ?? 100) < LOW_BATTERY });
    if (e.type === "schedule.firstEntry") this.firstEntry.set(companyId, Math.max(this.firstEntry.get(companyId) ?? 0, e.at));
    const door = doorStateOf(e);
    if (door && (this.door.get(id)?.at ?? 0) <= e.at) this.door.set(id, { at: e.at, state: door });
    if (e.type === "location" && (this.location.get(id)?.at ?? 0) <= e.at) this.location.set(id, { at: e.at, lat: num(d.lat)!, lon: num(d.lon)! });
    const releaseId = Number(d.releaseId);
    if (!Number.isSafeInteger(releaseId) || releaseId <= 0) return;
    const key = `${id}:${releaseId}`;
    const prev = this.progress.get(key);
    if (e.type === "firmware.progress" && prev?.state !== "installed") {
      this.progress.set(key, {
        deviceId: id,
        companyId: device.companyId,
        releaseId,
        done: Math.max(0, Math.trunc(num(d.received) ?? 0)),
        total: Math.max(0, Math.trunc(num(d.blocks) ?? 0)),
        state: "downloading",
        detail: "",
      });
    }
    if (e.type === "firmware.result") {
      const ok = d.ok === true;
      this.progress.set(key, {
        deviceId: id,
        companyId: device.companyId,
        releaseId,
        done: prev?.total ?? 0,
        total: prev?.total ?? 0,
        state: ok ? "installed" : "failed",
        detail: typeof d.error === "string" ? d.error.slice(0, 200) : "",
        at: e.at,
      });
      if (ok) this.installed.set(id, releaseId);
    }
  }

  statements(db: Db, now: number) {
    const d = schema.devices;
    const out: unknown[] = [];
    for (const [id, at] of this.lastAt) {
      out.push(
        db
          .update(d)
          .set({ lastActivityAt: sql`max(coalesce(${d.lastActivityAt}, 0), ${at})` })
          .where(eq(d.id, id)),
      );
    }
    for (const [id, b] of this.battery) out.push(db.update(d).set({ lowBattery: b.low }).where(eq(d.id, id)));
    for (const [id, l] of this.location) {
      out.push(
        db
          .update(d)
          .set({ lastLatitude: l.lat, lastLongitude: l.lon, lastLocationAt: l.at })
          .where(sql`${d.id} = ${id} and coalesce(${d.lastLocationAt}, 0) <= ${l.at}`),
      );
    }
    for (const [id, x] of this.door) {
      out.push(
        db
          .update(d)
          .set({ doorState: x.state, doorStateAt: x.at })
          .where(sql`${d.id} = ${id} and coalesce(${d.doorStateAt}, 0) <= ${x.at}`),
      );
    }
    const p = schema.firmwareProgress;
    for (const x of this.progress.values()) {
      // A finished install is final; a later progress report (a re-sent batch) does not undo it.
      const total = x.total ? x.total : sql`${p.blocksTotal}`;
      const done = x.state === "downloading" ? x.done : sql`${p.blocksTotal}`;
      // The first failure stays (a retry does not hide it from the rollout); an install is timed anew.
      const timing = x.state === "failed" ? { failedAt: x.at } : x.state === "installed" ? { installedAt: x.at } : {};
      const timingSet = x.state === "failed" ? { failedAt: sql`coalesce(${p.failedAt}, ${x.at ?? null})` } : timing;
      out.push(
        db
          .insert(p)
          .values({
            deviceId: x.deviceId,
            releaseId: x.releaseId,
            companyId: x.companyId,
            blocksDone: x.done,
            blocksTotal: x.total,
            state: x.state,
            detail: x.detail,
            updatedAt: now,
            ...timing,
          })
          .onConflictDoUpdate({
            target: [p.deviceId, p.releaseId],
            set: { blocksDone: done, blocksTotal: total, state: x.state, detail: x.detail, updatedAt: now, ...timingSet },
            setWhere: x.state === "downloading" ? sql`${p.state} != 'installed'` : undefined,
          }),
      );
    }
    // The gateway spends a one-time key itself; recording it here shows it as used in the console and,
    // through the feed, to every other gateway (whose copy would otherwise still let it open once more).
    const k = schema.ekeyAssignments;
    for (const [keyId, o] of this.opened) {
      const unusedOneTime = and(eq(k.id, keyId), eq(k.companyId, o.companyId), eq(k.accessType, "one_time_access"), isNull(k.usedAt));
      out.push(db.update(k).set({ usedAt: o.at, updatedAt: now }).where(unusedOneTime));
    }
    // The company's latest first-person-in entry holds its doors open for the day: the door decision and
    // every gateway (through the feed) read it.
    for (const [companyId, at] of this.firstEntry) {
      const f = schema.companyFirstEntries;
      out.push(
        db
          .insert(f)
          .values({ companyId, at })
          .onConflictDoUpdate({ target: f.companyId, set: { at: sql`max(${f.at}, excluded.at)` } }),
        db.insert(schema.gatewayChanges).values({ companyId, entity: "scheduledOpen", entityId: companyId, op: "upsert" }),
      );
    }
    for (const [id, releaseId] of this.installed) {
      const f = schema.firmwareReleases;
      out.push(
        db
          .update(d)
          .set({ firmwareVersion: sql`coalesce((select ${f.version} from ${f} where ${f.id} = ${releaseId}), ${d.firmwareVersion})` })
          .where(eq(d.id, id)),
      );
    }
    return out;
  }
}
