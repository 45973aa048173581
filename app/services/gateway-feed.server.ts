/**
 * The change feed gateways follow (`GET /api/gateway/changes`, docs/gateway-api.md). Each change
 * carries the *current* state of a console record in the gateway's entity types
 * (gateway/src/store/replica.js): company, device, boardCredential, user, ekey, groupKey,
 * scheduledOpen, firmware, cell, lockdown, pass. Gone rows become `delete` tombstones.
 *
 * Without a cursor the answer is a snapshot, paged: the first page has `reset: true`, the cursor
 * `s<head>.<section>.<after id>` walks the current rows section by section in id order (so every row
 * comes exactly once however long the paging takes), and the last page hands out `<head>`, the feed
 * position read when the snapshot began, so whatever changed meanwhile follows incrementally.
 * After that `gateway_changes.seq` is the cursor.
 *
 * Console entity names in `gateway_changes.entity` and what they expand to. The rows are written by
 * database triggers (db/migrations/0005_door_feed_triggers.sql) in the same statement as the change
 * itself, so no code path can change what a door decides without telling the gateways:
 *   company       → company {id: code, active, biometricRequired, forceFirmware} + the company's devices, keys and scheduled-open
 *                   (entityId = companies.id; companies, and the settings doors follow)
 *   device        → device + boardCredential          (entityId = devices.id; devices, group members)
 *   ekey          → ekey or groupKey, with its fob    (entityId = ekey_assignments.id)
 *   group         → the group's keys + every device of its company (membership lives on devices)
 *   user          → user (+ that user's keys, whose labels and company follow the user)
 *   scheduledOpen → scheduledOpen of that company     (entityId = companies.id; hours, first entries)
 *   firmware      → firmware                          (entityId = firmware_releases.id)
 *   deviceType    → the devices and releases of that type, which carry its code
 *   companyCell   → the company, its devices, users, keys and scheduled-open (entityId = companies.id; a move
 *                   between cells, `gateway_changes.cell` = the cell it left)
 *   cell          → cell {id: name, mqttUrl}, the calling gateway's own       (`gateway_changes.cell` = its name)
 *   lockdown      → lockdown {id: company code, epoch, active, mode, scope, …}  (entityId = companies.id; its
 *                   start and end, and a role change of one of its users while one is in force: decision 0083)
 *   pass          → pass {id: "v<id>", doors or groupId, window}  (entityId = visitor_passes.id; a revoked pass is
 *                   deleted: decision 0096)
 *
 * Each gateway serves one cell (docs/decisions/0050-cells.md): it reads the rows of its cell's companies,
 * the rows naming its cell in `gateway_changes.cell` (a company or a transferred device that left it, its
 * cell's record) and the platform's (firmware, device types). Records are built from the current state
 * against the cell's companies only, so whatever now belongs to another cell reaches the cell it left as
 * a delete and never reaches any other.
 *
 * `gateway_changes` keeps changes for FEED_RETENTION_MS (pruned by the cron); a cursor older than
 * the oldest kept change is answered 410 and the gateway starts over from a snapshot.
 */
import { and, asc, eq, gt, inArray, isNull, lt, max, min, ne, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { DEACTIVATED } from "~/schemas/device-groups";
import { inChunks, schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { groupKeyHolidays, keyHolidays, type HolidaysOf } from "./door-decision.server";
import { groupKeyHolidayChoice } from "./group-key-holidays";
import { holidayFields } from "~/schemas/holidays";
import { cellOf } from "./gateway-cells.server";
import { lockdownRecord } from "./lockdown.server";
import { passFeedId, passWindow } from "./visitor-pass-window";
import type { FeedChange, FeedPage } from "../../gateway/src/protocol/wire";

export type { FeedChange, FeedPage };

/** What `gateway_changes.entity` may name; the triggers of db/migrations/0005_door_feed_triggers.sql write them. */
export const FEED_ENTITIES = ["company", "device", "ekey", "group", "user", "scheduledOpen", "firmware", "deviceType", "companyCell", "cell", "lockdown", "pass"] as const;
export type FeedEntity = (typeof FEED_ENTITIES)[number];
/**
 * Page size (`?limit=`): `gateway_changes` rows per incremental page, console rows per snapshot
 * page. Either way a response stays bounded (one console row is at most a few changes).
 */
const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 1000;
/** How long `gateway_changes` keeps a change; a gateway away for longer resyncs from a snapshot. */
export const FEED_RETENTION_MS = 7 * 24 * 3600_000;

/**
 * Companies, zones and device types: small tables every builder needs. `company` holds only the companies
 * of the calling gateway's cell, so a builder turns any record of another cell's company into a delete:
 * records never reach another cell's gateway, and a cell a company or device left forgets them.
 */
async function loadReference(db: Db, cell: string) {
  const [companies, zones, types, settings] = await db.batch([
    db
      .select({ id: schema.companies.id, code: schema.companies.code, cell: schema.companies.cell, live: isNull(schema.companies.deletedAt), off: schema.companies.isDeactive })
      .from(schema.companies),
    db.select({ id: schema.timeZones.id, name: schema.timeZones.name }).from(schema.timeZones),
    db.select({ id: schema.deviceTypes.id, code: schema.deviceTypes.deviceCode }).from(schema.deviceTypes),
    db.select().from(schema.companySettings),
  ]);
  const zone = new Map(zones.map((z) => [z.id, z.name]));
  const settingsByCompany = new Map(settings.map((s) => [s.companyId, s]));
  const company = new Map(companies.filter((c) => c.cell === cell).map((c) => [c.id, { code: c.code, live: Boolean(c.live) && !c.off }]));
  return {
    cell,
    company,
    /** Every company's code, for the delete of a company that left the cell. */
    codeOf: new Map(companies.map((c) => [c.id, c.code])),
    typeCode: new Map(types.map((t) => [t.id, t.code])),
    settingsByCompany,
    zoneName: (id: number | null | undefined) => (id == null ? undefined : zone.get(id)),
    /** A window's zone: its own, else the company's default, else UTC. */
    tzFor(companyId: number, zoneId?: number | null) {
      return this.zoneName(zoneId) ?? this.zoneName(settingsByCompany.get(companyId)?.defaultTimeZoneId) ?? "UTC";
    },
  };
}
type Ref = Awaited<ReturnType<typeof loadReference>>;

const tombstone = (type: string, id: number | string): FeedChange => ({ type, op: "delete", id: String(id) });

async function deviceChanges(db: Db, ref: Ref, ids: number[]): Promise<FeedChange[]> {
  const d = schema.devices;
  const rows = await inChunks(ids, (part) => db.select().from(d).where(inArray(d.id, part)));
  const m = schema.deviceGroupMembers;
  const g = schema.deviceGroups;
  const liveIds = rows.filter((r) => r.deletedAt == null).map((r) => r.id);
  const memberships = await inChunks(liveIds, (part) =>
    db
      .select({ deviceId: m.deviceId, groupId: m.groupId })
      .from(m)
      .innerJoin(g, eq(g.id, m.groupId))
      .where(and(inArray(m.deviceId, part), isNull(g.deletedAt), ne(g.status, DEACTIVATED))),
  );
  const groupsOf = new Map<number, string[]>();
  for (const x of memberships) groupsOf.set(x.deviceId, [...(groupsOf.get(x.deviceId) ?? []), String(x.groupId)]);

  const out: FeedChange[] = [];
  const found = new Set(rows.map((r) => r.id));
  for (const id of ids) if (!found.has(id)) out.push(tombstone("device", id), tombstone("boardCredential", id));
  for (const r of rows) {
    const company = ref.company.get(r.companyId);
    if (r.deletedAt != null || !company) {
      out.push(tombstone("device", r.id), tombstone("boardCredential", r.id));
      continue;
    }
    out.push({
      type: "device",
      op: "upsert",
      id: String(r.id),
      data: {
        id: String(r.id),
        companyId: company.code,
        name: r.fullName,
        deviceType: r.deviceTypeId == null ? null : (ref.typeCode.get(r.deviceTypeId) ?? null),
        tz: ref.tzFor(r.companyId),
        groupIds: groupsOf.get(r.id) ?? [],
        // The company's own record carries whether it is live: a door saved while its company was
        // deactivated must not stay shut once the company is back.
        // Only a configured door admits anyone (decision 0022): stock, unconfigured and retired boards
        // are refused at CONNECT and disconnected when their device changes to one of those.
        active: r.status === "configured",
        scheduleOpen: r.scheduleOpen,
        // The release an allowed user started here: offered even when the company does not force updates.
        firmwareStart: r.firmwareStartReleaseId == null ? null : String(r.firmwareStartReleaseId),
        ...(r.relockTimer ? { unlockMs: r.relockTimer * 1000 } : {}),
        // The board reports `door.heldOpen` once the door has stood open this long (decision 0076).
        ...(r.heldOpenSeconds ? { heldOpenMs: r.heldOpenSeconds * 1000 } : {}),
      },
    });
    out.push(
      r.boardSecretHash && r.status === "configured"
        ? { type: "boardCredential", op: "upsert", id: String(r.id), data: { deviceId: String(r.id), hash: r.boardSecretHash } }
        : tombstone("boardCredential", r.id),
    );
  }
  return out;
}

const ACCESS = { full_access: "full", custom_access: "custom", one_time_access: "oneTime" } as const;

/** The dates of these holiday calendars (decision 0077): windows that follow one carry them. */
async function holidaysOfCalendars(db: Db, ids: (number | null)[]): Promise<HolidaysOf> {
  const h = schema.holidayDates;
  const wanted = [...new Set(ids.filter((id): id is number => id != null))];
  const rows = await inChunks(wanted, (part) =>
    db.select({ calendarId: h.calendarId, date: h.date, name: h.name, openTime: h.openTime, closeTime: h.closeTime }).from(h).where(inArray(h.calendarId, part)),
  );
  const byCalendar = new Map<number, typeof rows>();
  for (const r of rows) byCalendar.set(r.calendarId, [...(byCalendar.get(r.calendarId) ?? []), r]);
  return (id) => (id == null ? undefined : (byCalendar.get(id) ?? []));
}
const days = (mask: string) => Array.from({ length: 7 }, (_, i) => mask[i] === "1");

/** E-keys as access windows (docs/ARCHITECTURE.md §5); group keys carry their group's schedule. */
type KeyFilter = { ids: number[] } | { groupIds: number[] } | { userIds: number[] } | { companyIds: number[] };

async function keyChanges(db: Db, ref: Ref, filter: KeyFilter): Promise<FeedChange[]> {
  const k = schema.ekeyAssignments;
  const rows =
    "groupIds" in filter
      ? await inChunks(filter.groupIds, (part) =>
          db
            .select()
            .from(k)
            .where(and(eq(k.isGroup, true), inArray(k.groupId, part))),
        )
      : "userIds" in filter
        ? await inChunks(filter.userIds, (part) => db.select().from(k).where(inArray(k.userId, part)))
        : "companyIds" in filter
          ? await inChunks(filter.companyIds, (part) => db.select().from(k).where(inArray(k.companyId, part)))
          : await inChunks(filter.ids, (part) => db.select().from(k).where(inArray(k.id, part)));
  const userIds = [...new Set(rows.map((r) => r.userId))];
  const groupIds = [...new Set(rows.filter((r) => r.isGroup && r.groupId != null).map((r) => r.groupId!))];
  const users = await inChunks(userIds, (part) =>
    db.select({ id: schema.users.id, label: schema.users.displayName, deletedAt: schema.users.deletedAt }).from(schema.users).where(inArray(schema.users.id, part)),
  );
  const groups = await inChunks(groupIds, (part) => db.select().from(schema.deviceGroups).where(inArray(schema.deviceGroups.id, part)));
  const userById = new Map(users.map((u) => [u.id, u]));
  const groupById = new Map(groups.map((g) => [g.id, g]));
  // A group key follows its own calendar, or its group's when its own choice is ignore.
  const holidaysOf = await holidaysOfCalendars(
    db,
    rows
      .map((r) => {
        const g = r.isGroup && r.groupId != null ? groupById.get(r.groupId) : undefined;
        return g ? groupKeyHolidayChoice(r, g) : r;
      })
      .filter((c) => c.onHolidays !== "ignore")
      .map((c) => c.holidayCalendarId),
  );

  const out: FeedChange[] = [];
  const found = new Set(rows.map((r) => r.id));
  if ("ids" in filter) for (const id of filter.ids) if (!found.has(id)) out.push(tombstone("ekey", id), tombstone("groupKey", id));
  for (const r of rows) {
    const user = userById.get(r.userId);
    const company = ref.company.get(r.companyId);
    // A fob is a credential of this key alone (docs/decisions/0031-fobs-bound-to-keys.md).
    const base = { id: String(r.id), userId: String(r.userId), userLabel: user?.label ?? "", companyId: company?.code, fob: r.fobDeviceId || null };
    if (!user || user.deletedAt != null || !company) {
      out.push(tombstone(r.isGroup ? "groupKey" : "ekey", r.id));
      continue;
    }
    if (r.isGroup) {
      const g = r.groupId == null ? undefined : groupById.get(r.groupId);
      if (!g || g.deletedAt != null || g.status === DEACTIVATED) {
        out.push(tombstone("groupKey", r.id));
        continue;
      }
      const window = {
        kind: "group",
        tz: ref.tzFor(g.companyId, g.timeZoneId),
        days: [g.schMonday, g.schTuesday, g.schWednesday, g.schThursday, g.schFriday, g.schSaturday, g.schSunday],
        allDay: g.isAllDay,
        startTime: g.isAllDay ? null : g.startAt,
        endTime: g.isAllDay ? null : g.endAt,
        ...groupKeyHolidays(r, g, holidaysOf),
      };
      // The group's window has no dates (docs/ARCHITECTURE.md §5): the assignment's start date travels beside it.
      out.push({ type: "groupKey", op: "upsert", id: String(r.id), data: { ...base, groupId: String(g.id), startDate: r.startDate ?? null, window } });
      continue;
    }
    const access = ACCESS[r.accessType];
    const allDay = access === "full" || r.isAllDay;
    const window = {
      kind: "ekey",
      access,
      tz: ref.tzFor(r.companyId, r.timeZoneId),
      startDate: r.startDate ?? new Date(r.createdAt).toISOString().slice(0, 10),
      endDate: r.isNeverEnd ? null : (r.endDate ?? null),
      days: days(r.scheduleDays),
      allDay,
      startTime: allDay ? null : r.startTime,
      endTime: allDay ? null : r.endTime,
      used: r.usedAt != null,
      ...keyHolidays(r, holidaysOf),
    };
    out.push({ type: "ekey", op: "upsert", id: String(r.id), data: { ...base, deviceId: String(r.deviceId), window } });
  }
  return out;
}

async function userChanges(db: Db, ref: Ref, ids: number[]): Promise<FeedChange[]> {
  const u = schema.users;
  const rows = await inChunks(ids, (part) => db.select().from(u).where(inArray(u.id, part)));

  const out: FeedChange[] = [];
  const found = new Set(rows.map((r) => r.id));
  for (const id of ids) if (!found.has(id)) out.push(tombstone("user", id));
  for (const r of rows) {
    const company = ref.company.get(r.companyId);
    if (r.deletedAt != null || !company) {
      out.push(tombstone("user", r.id));
      continue;
    }
    out.push({
      type: "user",
      op: "upsert",
      id: String(r.id),
      data: {
        id: String(r.id),
        companyId: company.code,
        label: r.displayName,
        active: !r.isInactive,
        phoneKeys: r.boundDeviceId ? [r.boundDeviceId] : [],
      },
    });
  }
  return out;
}

const CLOSED = { openWholeDay: false, openTime: "", closeTime: "" };

/**
 * One scheduled-open window per live company that has scheduled open switched on; a deactivated company's
 * doors are not held open. `firstEntryAt` is the company's latest first-person-in entry (its 'Scheduled
 * Open Started' activity, from whichever gateway saw it): the core only counts it on its own local day.
 */
async function scheduleChanges(db: Db, ref: Ref, ids: number[]): Promise<FeedChange[]> {
  const f = schema.companyFirstEntries;
  const [dayRows, exceptionRows, firstEntries] = await Promise.all([
    inChunks(ids, (part) => db.select().from(schema.scheduleOpenDays).where(inArray(schema.scheduleOpenDays.companyId, part))),
    inChunks(ids, (part) =>
      db.select().from(schema.scheduleOpenExceptions).where(inArray(schema.scheduleOpenExceptions.companyId, part)).orderBy(asc(schema.scheduleOpenExceptions.date)),
    ),
    inChunks(ids, (part) => db.select().from(f).where(inArray(f.companyId, part))),
  ]);
  const firstEntryOf = new Map(firstEntries.map((r) => [r.companyId, r.at]));
  const holidaysOf = await holidaysOfCalendars(
    db,
    ids.map((id) => ref.settingsByCompany.get(id)).map((s) => (s && s.onHolidays !== "ignore" ? s.holidayCalendarId : null)),
  );
  const out: FeedChange[] = [];
  for (const companyId of ids) {
    const settings = ref.settingsByCompany.get(companyId);
    const company = ref.company.get(companyId);
    if (!settings?.scheduleOpen || !company?.live) {
      out.push(tombstone("scheduledOpen", companyId));
      continue;
    }
    const week = Array.from({ length: 7 }, (_, day) => {
      const row = dayRows.find((r) => r.companyId === companyId && r.day === day);
      return row ? { openWholeDay: row.openWholeDay, openTime: row.openTime, closeTime: row.closeTime } : CLOSED;
    });
    const exceptions = exceptionRows
      .filter((e) => e.companyId === companyId)
      .map((e) => ({ date: e.date, openWholeDay: e.openWholeDay, openTime: e.openTime, closeTime: e.closeTime }));
    out.push({
      type: "scheduledOpen",
      op: "upsert",
      id: String(companyId),
      data: {
        id: String(companyId),
        companyId: company.code,
        window: {
          kind: "scheduledOpen",
          tz: ref.tzFor(companyId),
          fpi: settings.fpi,
          firstEntryAt: firstEntryOf.get(companyId) ?? null,
          week,
          exceptions,
          ...holidayFields(settings.onHolidays, holidaysOf(settings.holidayCalendarId)),
        },
      },
    });
  }
  return out;
}

/** An open rollout as gateways decide by it (gateway/src/firmware/rollout-plan.js); null when there is none. */
function rolloutPlan(x: typeof schema.firmwareRollouts.$inferSelect | undefined) {
  if (!x || (x.state !== "running" && x.state !== "paused")) return null;
  return { id: String(x.id), state: x.state, wave: x.wave, waves: x.waves, canary: x.canary.map(String) };
}

async function firmwareChanges(db: Db, ref: Ref, ids: number[]): Promise<FeedChange[]> {
  const f = schema.firmwareReleases;
  const rows = await inChunks(ids, (part) => db.select().from(f).where(inArray(f.id, part)));
  const fr = schema.firmwareRollouts;
  const rollouts = await inChunks(ids, (part) =>
    db
      .select()
      .from(fr)
      .where(and(inArray(fr.releaseId, part), inArray(fr.state, ["running", "paused"]))),
  );
  const rolloutOf = new Map(rollouts.map((x) => [x.releaseId, x]));
  const out: FeedChange[] = [];
  const found = new Set(rows.map((r) => r.id));
  for (const id of ids) if (!found.has(id)) out.push(tombstone("firmware", id));
  for (const r of rows) {
    if (r.deletedAt != null) {
      out.push(tombstone("firmware", r.id));
      continue;
    }
    out.push({
      type: "firmware",
      op: "upsert",
      id: String(r.id),
      data: {
        id: String(r.id),
        deviceType: r.deviceTypeId == null ? null : (ref.typeCode.get(r.deviceTypeId) ?? null),
        version: r.version,
        description: r.versionDescription,
        size: r.size,
        sha256: r.sha256,
        active: r.isActive,
        rollout: rolloutPlan(rolloutOf.get(r.id)),
      },
    });
  }
  return out;
}

/**
 * A company as gateways see it: its code (what devices and users name), whether it is live, whether
 * its doors require the biometric claim of signed credentials (docs/decisions/0039-biometric-claim.md),
 * and whether its boards are offered firmware without anyone starting it (decision 0116).
 */
function companyChanges(ref: Ref, ids: number[]): FeedChange[] {
  return ids.flatMap((id) => {
    const company = ref.company.get(id);
    const settings = ref.settingsByCompany.get(id);
    const biometricRequired = Boolean(settings?.biometricSecurity);
    const forceFirmware = Boolean(settings?.isForceFirmwareUpdate);
    // Staged rollouts (decision 0094): when forced offers may go out, and until when the company sits them out.
    const window = settings?.firmwareWindowStart && settings.firmwareWindowEnd ? { start: settings.firmwareWindowStart, end: settings.firmwareWindowEnd } : null;
    const rollouts = { firmwareWindow: window, rolloutDeferredUntil: settings?.rolloutDeferredUntil ?? null };
    if (company)
      return [{ type: "company", op: "upsert" as const, id: company.code, data: { id: company.code, active: company.live, biometricRequired, forceFirmware, ...rollouts } }];
    // Companies are only ever soft-deleted, so a company change always finds its row; one of another cell has left this one.
    const code = ref.codeOf.get(id);
    return code === undefined ? [] : [tombstone("company", code)];
  });
}

/**
 * A company's lockdown state as gateways see it (decision 0083): the plan as started, with exempt roles
 * expanded to the users holding them (the feed's users carry no role). A company without a row, or of
 * another cell, is a delete.
 */
async function lockdownChanges(db: Db, ref: Ref, ids: number[]): Promise<FeedChange[]> {
  const l = schema.companyLockdowns;
  const rows = await inChunks(ids, (part) => db.select().from(l).where(inArray(l.companyId, part)));
  const byCompany = new Map(rows.map((r) => [r.companyId, r]));
  const out: FeedChange[] = [];
  for (const companyId of ids) {
    const r = byCompany.get(companyId);
    const company = ref.company.get(companyId);
    // A company that never had a lockdown has no record to send or delete.
    if (!r) continue;
    if (!company) {
      const code = ref.codeOf.get(companyId);
      if (code !== undefined) out.push(tombstone("lockdown", code));
      continue;
    }
    out.push({ type: "lockdown", op: "upsert", id: company.code, data: await lockdownRecord(db, r, company.code) });
  }
  return out;
}

/** Visitor passes (decision 0096): a revoked pass, or one of a company not in this cell, is a delete. */
async function passChanges(db: Db, ref: Ref, ids: number[]): Promise<FeedChange[]> {
  const v = schema.visitorPasses;
  const rows = await inChunks(ids, (part) => db.select().from(v).where(inArray(v.id, part)));
  const found = new Set(rows.map((r) => r.id));
  const out: FeedChange[] = ids.filter((id) => !found.has(id)).map((id) => tombstone("pass", passFeedId(id)));
  for (const r of rows) {
    const company = ref.company.get(r.companyId);
    if (!company || r.revokedAt != null) {
      out.push(tombstone("pass", passFeedId(r.id)));
      continue;
    }
    const id = passFeedId(r.id);
    out.push({
      type: "pass",
      op: "upsert",
      id,
      data: {
        id,
        companyId: company.code,
        guest: r.guestName,
        hostUserId: String(r.hostUserId),
        doors: r.deviceIds.map(String),
        groupId: r.deviceGroupId == null ? null : String(r.deviceGroupId),
        window: passWindow(r, ref.tzFor(r.companyId)),
      },
    });
  }
  return out;
}

/** The passes of companies (a company that changed cells takes them along). */
async function companyPassIds(db: Db, companyIds: number[]): Promise<number[]> {
  const v = schema.visitorPasses;
  const rows = await inChunks(companyIds, (part) =>
    db
      .select({ id: v.id })
      .from(v)
      .where(and(inArray(v.companyId, part), isNull(v.revokedAt))),
  );
  return rows.map((r) => r.id);
}

/** The gateway's own cell: the MQTT endpoint its boards' configurations name (docs/decisions/0050-cells.md). */
async function cellChanges(db: Db, cell: string): Promise<FeedChange[]> {
  const [row] = await db.select({ name: schema.cells.name, mqttUrl: schema.cells.mqttUrl }).from(schema.cells).where(eq(schema.cells.name, cell));
  return row ? [{ type: "cell", op: "upsert", id: row.name, data: { id: row.name, mqttUrl: row.mqttUrl } }] : [tombstone("cell", cell)];
}

/** The ids of the companies of `cell`, as a subquery. */
const companiesOf = (cell: string): SQL => sql`(select ${schema.companies.id} from ${schema.companies} where ${schema.companies.cell} = ${cell})`;

async function groupCompanyIds(db: Db, groupIds: number[]): Promise<number[]> {
  const g = schema.deviceGroups;
  const rows = await inChunks(groupIds, (part) => db.selectDistinct({ companyId: g.companyId }).from(g).where(inArray(g.id, part)));
  return rows.map((r) => r.companyId);
}

async function companyDeviceIds(db: Db, companyIds: number[]): Promise<number[]> {
  const d = schema.devices;
  const rows = await inChunks(companyIds, (part) =>
    db
      .select({ id: d.id })
      .from(d)
      .where(and(inArray(d.companyId, part), isNull(d.deletedAt))),
  );
  return rows.map((r) => r.id);
}

async function companyUserIds(db: Db, companyIds: number[]): Promise<number[]> {
  const u = schema.users;
  const rows = await inChunks(companyIds, (part) =>
    db
      .select({ id: u.id })
      .from(u)
      .where(and(inArray(u.companyId, part), isNull(u.deletedAt))),
  );
  return rows.map((r) => r.id);
}

/** The live devices of these types in the cell's companies (a type's code names devices of every cell). */
async function typeDeviceIds(db: Db, cell: string, typeIds: number[]): Promise<number[]> {
  const d = schema.devices;
  const rows = await inChunks(typeIds, (part) =>
    db
      .select({ id: d.id })
      .from(d)
      .where(and(inArray(d.deviceTypeId, part), isNull(d.deletedAt), inArray(d.companyId, companiesOf(cell)))),
  );
  return rows.map((r) => r.id);
}

async function typeFirmwareIds(db: Db, typeIds: number[]): Promise<number[]> {
  const f = schema.firmwareReleases;
  const rows = await inChunks(typeIds, (part) =>
    db
      .select({ id: f.id })
      .from(f)
      .where(and(inArray(f.deviceTypeId, part), isNull(f.deletedAt))),
  );
  return rows.map((r) => r.id);
}

/** Up to `n` ids of `table` after `after`, in id order: one step of a snapshot section. */
async function idsAfter(db: Db, table: SQLiteTable, id: AnySQLiteColumn, after: number, n: number, where?: SQL): Promise<number[]> {
  const rows = await db
    .select({ id })
    .from(table)
    .where(and(gt(id, after), where))
    .orderBy(asc(id))
    .limit(n);
  return rows.map((r) => Number(r.id));
}

type Section = {
  name: string;
  ids: (db: Db, cell: string, after: number, n: number) => Promise<number[]>;
  build: (db: Db, ref: Ref, ids: number[]) => Promise<FeedChange[]>;
};

/**
 * The snapshot, in the order it is paged: the records of the gateway's cell's companies, and the platform's
 * firmware. Companies come first, so a page of users never precedes their company.
 */
const SECTIONS: Section[] = [
  {
    name: "company",
    ids: (db, cell, after, n) => idsAfter(db, schema.companies, schema.companies.id, after, n, eq(schema.companies.cell, cell)),
    build: async (_db, ref, ids) => companyChanges(ref, ids),
  },
  {
    name: "device",
    ids: (db, cell, after, n) =>
      idsAfter(db, schema.devices, schema.devices.id, after, n, and(isNull(schema.devices.deletedAt), inArray(schema.devices.companyId, companiesOf(cell)))),
    build: deviceChanges,
  },
  {
    name: "user",
    ids: (db, cell, after, n) => idsAfter(db, schema.users, schema.users.id, after, n, and(isNull(schema.users.deletedAt), inArray(schema.users.companyId, companiesOf(cell)))),
    build: userChanges,
  },
  {
    name: "key",
    ids: (db, cell, after, n) => idsAfter(db, schema.ekeyAssignments, schema.ekeyAssignments.id, after, n, inArray(schema.ekeyAssignments.companyId, companiesOf(cell))),
    build: (db, ref, ids) => keyChanges(db, ref, { ids }),
  },
  {
    name: "scheduledOpen",
    ids: (db, cell, after, n) =>
      idsAfter(
        db,
        schema.companySettings,
        schema.companySettings.companyId,
        after,
        n,
        and(eq(schema.companySettings.scheduleOpen, true), inArray(schema.companySettings.companyId, companiesOf(cell))),
      ),
    build: scheduleChanges,
  },
  {
    name: "lockdown",
    ids: (db, cell, after, n) => idsAfter(db, schema.companyLockdowns, schema.companyLockdowns.companyId, after, n, inArray(schema.companyLockdowns.companyId, companiesOf(cell))),
    build: lockdownChanges,
  },
  {
    name: "pass",
    // Passes still to be used (a day past the link's end covers any zone); revoked ones are not sent at all.
    ids: (db, cell, after, n) =>
      idsAfter(
        db,
        schema.visitorPasses,
        schema.visitorPasses.id,
        after,
        n,
        and(
          isNull(schema.visitorPasses.revokedAt),
          sql`${schema.visitorPasses.linkExpiresAt} > unixepoch() * 1000 - 86400000`,
          inArray(schema.visitorPasses.companyId, companiesOf(cell)),
        ),
      ),
    build: passChanges,
  },
  {
    name: "firmware",
    ids: (db, _cell, after, n) => idsAfter(db, schema.firmwareReleases, schema.firmwareReleases.id, after, n, isNull(schema.firmwareReleases.deletedAt)),
    build: firmwareChanges,
  },
];

/** Where a snapshot's paging stands: the feed head when it began, and the last row sent of a section. */
type SnapshotAt = { head: number; section: number; after: number };
const SNAPSHOT_CURSOR = /^s(\d+)\.([A-Za-z]+)\.(\d+)$/;

/** Fills a page with up to `limit` rows, section after section, from where the cursor stands. */
async function snapshotPage(db: Db, cell: string, at: SnapshotAt, limit: number, first: boolean): Promise<FeedPage> {
  const ref = await loadReference(db, cell);
  // The first page opens with the gateway's own cell record.
  const changes: FeedChange[] = first ? await cellChanges(db, cell) : [];
  let room = limit;
  for (let i = at.section; i < SECTIONS.length; i++) {
    const section = SECTIONS[i];
    const ids = await section.ids(db, cell, i === at.section ? at.after : 0, room);
    if (ids.length > 0) changes.push(...(await section.build(db, ref, ids)));
    room -= ids.length;
    if (room === 0) return { v: 1, changes, cursor: `s${at.head}.${section.name}.${ids.at(-1)}`, more: true, ...(first ? { reset: true as const } : {}) };
  }
  return { v: 1, changes, cursor: String(at.head), more: false, ...(first ? { reset: true as const } : {}) };
}

/** Feed entities that concern every cell: the platform's firmware and device-type codes. */
const PLATFORM_ENTITIES: FeedEntity[] = ["firmware", "deviceType"];

async function changesAfter(db: Db, cell: string, cursor: number, limit: number): Promise<FeedPage> {
  const c = schema.gatewayChanges;
  // A cell's gateway reads the changes of its cell's companies, those naming its cell (a company or device
  // that left it, its own cell record) and the platform's.
  const concerns = sql`(${inArray(c.entity, PLATFORM_ENTITIES)} or ${c.cell} = ${cell} or ${inArray(c.companyId, companiesOf(cell))})`;
  // One batch is one transaction: a prune cannot slip in between the history check and the read.
  const [[kept], rows] = await db.batch([
    db.select({ oldest: min(c.seq), newest: max(c.seq) }).from(c),
    db
      .select({ seq: c.seq, entity: c.entity, entityId: c.entityId })
      .from(c)
      .where(and(gt(c.seq, cursor), concerns))
      .orderBy(asc(c.seq))
      .limit(limit + 1),
  ]);
  // Past the newest change (a rebuilt database) or short of the oldest kept one (pruned): history is missing.
  if (cursor > (kept?.newest ?? 0) || cursor < (kept?.oldest ?? 1) - 1) throw new CursorExpired();
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  // With nothing more for this cell, its cursor moves past other cells' changes too (read in the same transaction).
  const next = more ? page.at(-1)!.seq : Math.max(cursor, kept?.newest ?? 0);

  const ref = await loadReference(db, cell);
  const idsOf = (entity: string) => [...new Set(page.filter((r) => r.entity === entity).map((r) => r.entityId))];
  // A company that changed cells goes whole: learnt by the cell it joined, forgotten by the one it left.
  const moved = idsOf("companyCell");
  const companies = [...new Set([...idsOf("company"), ...moved])];
  const groups = idsOf("group");
  const users = [...new Set([...idsOf("user"), ...(moved.length ? await companyUserIds(db, moved) : [])])];
  const types = idsOf("deviceType");
  const deviceCompanies = [...new Set([...companies, ...(groups.length ? await groupCompanyIds(db, groups) : [])])];
  const devices = [
    ...new Set([...idsOf("device"), ...(deviceCompanies.length ? await companyDeviceIds(db, deviceCompanies) : []), ...(types.length ? await typeDeviceIds(db, cell, types) : [])]),
  ];
  const firmware = [...new Set([...idsOf("firmware"), ...(types.length ? await typeFirmwareIds(db, types) : [])])];
  const schedules = [...new Set([...idsOf("scheduledOpen"), ...companies])];
  const lockdowns = [...new Set([...idsOf("lockdown"), ...companies])];
  const passes = [...new Set([...idsOf("pass"), ...(moved.length ? await companyPassIds(db, moved) : [])])];
  const changes = [
    ...(idsOf("cell").length ? await cellChanges(db, cell) : []),
    ...companyChanges(ref, companies),
    ...(devices.length ? await deviceChanges(db, ref, devices) : []),
    ...(users.length ? await userChanges(db, ref, users) : []),
    ...(idsOf("ekey").length ? await keyChanges(db, ref, { ids: idsOf("ekey") }) : []),
    ...(groups.length ? await keyChanges(db, ref, { groupIds: groups }) : []),
    ...(users.length ? await keyChanges(db, ref, { userIds: users }) : []),
    // A key without a zone of its own follows the company's default zone.
    ...(companies.length ? await keyChanges(db, ref, { companyIds: companies }) : []),
    ...(schedules.length ? await scheduleChanges(db, ref, schedules) : []),
    ...(firmware.length ? await firmwareChanges(db, ref, firmware) : []),
    ...(lockdowns.length ? await lockdownChanges(db, ref, lockdowns) : []),
    ...(passes.length ? await passChanges(db, ref, passes) : []),
  ];
  return { v: 1, changes, cursor: String(next), more };
}

/** The feed has no history at this cursor (pruned, or the database was rebuilt): the gateway restarts from a snapshot. */
export class CursorExpired extends Error {
  constructor() {
    super("cursor_expired");
  }
}

export type FeedQuery = { from: { seq: number } | { snapshot: SnapshotAt } | "start"; limit: number };

/** Parses `?cursor=&limit=`; a bad limit is a 400, an unreadable cursor a 410 (the gateway then resyncs). */
export function parseFeedQuery(url: URL): FeedQuery {
  const rawCursor = url.searchParams.get("cursor") ?? "";
  const rawLimit = url.searchParams.get("limit");
  const limit = rawLimit == null || rawLimit === "" ? DEFAULT_LIMIT : Number(rawLimit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new ServiceError(400, `limit must be an integer from 1 to ${MAX_LIMIT}`);
  if (rawCursor === "" || rawCursor === "0") return { from: "start", limit };
  const snap = rawCursor.match(SNAPSHOT_CURSOR);
  if (snap) {
    const section = SECTIONS.findIndex((s) => s.name === snap[2]);
    const [head, after] = [Number(snap[1]), Number(snap[3])];
    if (section < 0 || !Number.isSafeInteger(head) || !Number.isSafeInteger(after)) throw new CursorExpired();
    return { from: { snapshot: { head, section, after } }, limit };
  }
  const seq = Number(rawCursor);
  if (!/^\d+$/.test(rawCursor) || !Number.isSafeInteger(seq)) throw new CursorExpired();
  return { from: { seq }, limit };
}

/** A page of the feed for the gateway `gatewayId`: the records of its cell (docs/decisions/0050-cells.md) and the platform's. */
export async function readFeed(db: Db, gatewayId: number, { from, limit }: FeedQuery): Promise<FeedPage> {
  const cell = await cellOf(db, gatewayId);
  if (from === "start") {
    // The head is read before any row: a change racing the snapshot is sent again after it.
    const [head] = await db.select({ seq: max(schema.gatewayChanges.seq) }).from(schema.gatewayChanges);
    return snapshotPage(db, cell, { head: head?.seq ?? 0, section: 0, after: 0 }, limit, true);
  }
  if ("snapshot" in from) return snapshotPage(db, cell, from.snapshot, limit, false);
  return changesAfter(db, cell, from.seq, limit);
}

/**
 * Deletes changes older than FEED_RETENTION_MS, but never the newest one: it is the position a
 * snapshot hands out, and an empty feed could not tell a caught-up cursor from a stale one.
 * Changes are pruned oldest first, so the oldest kept `seq` tells which cursors still have history.
 */
export async function pruneFeed(db: Db, now: number): Promise<void> {
  const c = schema.gatewayChanges;
  const firstKept = sql`coalesce(
    (select ${c.seq} from ${c} where ${c.createdAt} >= ${now - FEED_RETENTION_MS} order by ${c.seq} limit 1),
    (select max(${c.seq}) from ${c}))`;
  await db.delete(c).where(lt(c.seq, firstKept));
}
