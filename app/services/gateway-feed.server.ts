/**
 * The change feed gateways follow (`GET /api/gateway/changes`). `gateway_changes.seq` is the cursor;
 * each page names the console entities that changed after it and carries their *current* state in
 * the gateway's entity types (gateway/src/store/replica.js): device, boardCredential, user, ekey,
 * groupKey, scheduledOpen, firmware. Gone rows become `delete` tombstones. Without a cursor (or
 * cursor 0) the answer is a full snapshot with `reset: true`.
 *
 * Console entity names in `gateway_changes.entity` (what services insert) and what they expand to:
 *   device        → device + boardCredential          (entityId = devices.id)
 *   ekey          → ekey or groupKey                  (entityId = ekey_assignments.id)
 *   group         → the group's keys + every device of its company (membership lives on devices)
 *   user          → user (+ that user's keys, whose labels and company follow the user)
 *   scheduledOpen → scheduledOpen of that company     (entityId = companies.id)
 *   firmware      → firmware                          (entityId = firmware_releases.id)
 */
import { and, asc, eq, gt, inArray, isNull, max, ne, type SQL } from "drizzle-orm";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export type FeedChange = { type: string; op: "upsert" | "delete"; id: string; data?: Record<string, unknown> };
export type FeedPage = { v: 1; changes: FeedChange[]; cursor: string; more: boolean; reset?: boolean };

export const FEED_ENTITIES = ["device", "ekey", "group", "user", "scheduledOpen", "firmware"] as const;
const MAX_LIMIT = 1000;
/** D1 binds at most 100 parameters per statement; `IN (...)` lists are cut below that. */
const IN_CHUNK = 90;

const ALL = null;
type Ids = number[] | typeof ALL;

async function chunked<T>(ids: Ids, query: (part: number[] | null) => Promise<T[]>): Promise<T[]> {
  if (ids === ALL) return query(null);
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) out.push(...(await query(ids.slice(i, i + IN_CHUNK))));
  return out;
}

/** Companies, zones and device types: small tables every builder needs. */
async function loadReference(db: Db) {
  const [companies, zones, types, settings] = await db.batch([
    db.select({ id: schema.companies.id, code: schema.companies.code, live: isNull(schema.companies.deletedAt), off: schema.companies.isDeactive }).from(schema.companies),
    db.select({ id: schema.timeZones.id, name: schema.timeZones.name }).from(schema.timeZones),
    db.select({ id: schema.deviceTypes.id, code: schema.deviceTypes.deviceCode }).from(schema.deviceTypes),
    db.select().from(schema.companySettings),
  ]);
  const zone = new Map(zones.map((z) => [z.id, z.name]));
  const settingsByCompany = new Map(settings.map((s) => [s.companyId, s]));
  const company = new Map(companies.map((c) => [c.id, { code: c.code, live: Boolean(c.live) && !c.off }]));
  return {
    company,
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

async function deviceChanges(db: Db, ref: Ref, ids: Ids): Promise<FeedChange[]> {
  const d = schema.devices;
  const rows = await chunked(ids, (part) =>
    db.select().from(d).where(part ? inArray(d.id, part) : isNull(d.deletedAt)),
  );
  const m = schema.deviceGroupMembers;
  const g = schema.deviceGroups;
  const liveIds = rows.filter((r) => r.deletedAt == null).map((r) => r.id);
  const memberships = await chunked(liveIds, (part) =>
    db
      .select({ deviceId: m.deviceId, groupId: m.groupId })
      .from(m)
      .innerJoin(g, eq(g.id, m.groupId))
      .where(and(inArray(m.deviceId, part!), isNull(g.deletedAt), ne(g.status, 3))),
  );
  const groupsOf = new Map<number, string[]>();
  for (const x of memberships) groupsOf.set(x.deviceId, [...(groupsOf.get(x.deviceId) ?? []), String(x.groupId)]);

  const out: FeedChange[] = [];
  const found = new Set(rows.map((r) => r.id));
  for (const id of ids ?? []) if (!found.has(id)) out.push(tombstone("device", id), tombstone("boardCredential", id));
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
        active: company.live && r.status !== "retired" && r.status !== "stock",
        scheduleOpen: r.scheduleOpen,
        ...(r.relockTimer ? { unlockMs: r.relockTimer * 1000 } : {}),
      },
    });
    out.push(
      r.boardSecretHash
        ? { type: "boardCredential", op: "upsert", id: String(r.id), data: { deviceId: String(r.id), hash: r.boardSecretHash } }
        : tombstone("boardCredential", r.id),
    );
  }
  return out;
}

const ACCESS = { full_access: "full", custom_access: "custom", one_time_access: "oneTime" } as const;
const days = (mask: string) => Array.from({ length: 7 }, (_, i) => mask[i] === "1");

/** E-keys as access windows (DESIGN §4.1); group keys carry their group's schedule. */
async function keyChanges(db: Db, ref: Ref, filter: { ids?: Ids; groupIds?: number[]; userIds?: number[] }): Promise<FeedChange[]> {
  const k = schema.ekeyAssignments;
  const rows = filter.groupIds
    ? await chunked(filter.groupIds, (part) => db.select().from(k).where(and(eq(k.isGroup, true), inArray(k.groupId, part!))))
    : filter.userIds
      ? await chunked(filter.userIds, (part) => db.select().from(k).where(inArray(k.userId, part!)))
      : await chunked(filter.ids ?? ALL, (part) => db.select().from(k).where(part ? inArray(k.id, part) : undefined));
  const userIds = [...new Set(rows.map((r) => r.userId))];
  const groupIds = [...new Set(rows.filter((r) => r.isGroup && r.groupId != null).map((r) => r.groupId!))];
  const users = await chunked(userIds, (part) =>
    db.select({ id: schema.users.id, label: schema.users.displayName, deletedAt: schema.users.deletedAt }).from(schema.users).where(inArray(schema.users.id, part!)),
  );
  const groups = await chunked(groupIds, (part) => db.select().from(schema.deviceGroups).where(inArray(schema.deviceGroups.id, part!)));
  const userById = new Map(users.map((u) => [u.id, u]));
  const groupById = new Map(groups.map((g) => [g.id, g]));

  const out: FeedChange[] = [];
  const found = new Set(rows.map((r) => r.id));
  for (const id of filter.ids ?? []) if (!found.has(id)) out.push(tombstone("ekey", id), tombstone("groupKey", id));
  for (const r of rows) {
    const user = userById.get(r.userId);
    const company = ref.company.get(r.companyId);
    const base = { id: String(r.id), userId: String(r.userId), userLabel: user?.label ?? "", companyId: company?.code };
    if (!user || user.deletedAt != null || !company) {
      out.push(tombstone(r.isGroup ? "groupKey" : "ekey", r.id));
      continue;
    }
    if (r.isGroup) {
      const g = r.groupId == null ? undefined : groupById.get(r.groupId);
      if (!g || g.deletedAt != null || g.status === 3) {
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
      };
      out.push({ type: "groupKey", op: "upsert", id: String(r.id), data: { ...base, groupId: String(g.id), window } });
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
    };
    out.push({ type: "ekey", op: "upsert", id: String(r.id), data: { ...base, deviceId: String(r.deviceId), window } });
  }
  return out;
}

async function userChanges(db: Db, ref: Ref, ids: Ids): Promise<FeedChange[]> {
  const u = schema.users;
  const rows = await chunked(ids, (part) => db.select().from(u).where(part ? inArray(u.id, part) : isNull(u.deletedAt)));
  const k = schema.ekeyAssignments;
  const fobs = await chunked(
    rows.map((r) => r.id),
    (part) => db.selectDistinct({ userId: k.userId, fob: k.fobDeviceId }).from(k).where(and(inArray(k.userId, part!), ne(k.fobDeviceId, ""))),
  );
  const fobsOf = new Map<number, string[]>();
  for (const f of fobs) if (f.fob) fobsOf.set(f.userId, [...(fobsOf.get(f.userId) ?? []), f.fob]);

  const out: FeedChange[] = [];
  const found = new Set(rows.map((r) => r.id));
  for (const id of ids ?? []) if (!found.has(id)) out.push(tombstone("user", id));
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
        active: company.live && !r.isInactive,
        fobs: fobsOf.get(r.id) ?? [],
        phoneKeys: r.boundDeviceId ? [r.boundDeviceId] : [],
      },
    });
  }
  return out;
}

const CLOSED = { openWholeDay: false, openTime: "", closeTime: "" };

/** One scheduled-open window per company that has scheduled open switched on. */
async function scheduleChanges(db: Db, ref: Ref, companyIds: Ids): Promise<FeedChange[]> {
  const ids = companyIds ?? [...ref.company.keys()];
  const [dayRows, exceptionRows] = await Promise.all([
    chunked(ids, (part) => db.select().from(schema.scheduleOpenDays).where(inArray(schema.scheduleOpenDays.companyId, part!))),
    chunked(ids, (part) =>
      db.select().from(schema.scheduleOpenExceptions).where(inArray(schema.scheduleOpenExceptions.companyId, part!)).orderBy(asc(schema.scheduleOpenExceptions.date)),
    ),
  ]);
  const out: FeedChange[] = [];
  for (const companyId of ids) {
    const settings = ref.settingsByCompany.get(companyId);
    const company = ref.company.get(companyId);
    if (!settings?.scheduleOpen || !company) {
      if (companyIds !== ALL) out.push(tombstone("scheduledOpen", companyId));
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
        window: { kind: "scheduledOpen", tz: ref.tzFor(companyId), fpi: settings.fpi, firstEntryAt: null, week, exceptions },
      },
    });
  }
  return out;
}

async function firmwareChanges(db: Db, ref: Ref, ids: Ids): Promise<FeedChange[]> {
  const f = schema.firmwareReleases;
  const rows = await chunked(ids, (part) => db.select().from(f).where(part ? inArray(f.id, part) : isNull(f.deletedAt)));
  const out: FeedChange[] = [];
  const found = new Set(rows.map((r) => r.id));
  for (const id of ids ?? []) if (!found.has(id)) out.push(tombstone("firmware", id));
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
      },
    });
  }
  return out;
}

async function companyDeviceIds(db: Db, groupIds: number[]): Promise<number[]> {
  const g = schema.deviceGroups;
  const companies = await chunked(groupIds, (part) => db.selectDistinct({ companyId: g.companyId }).from(g).where(inArray(g.id, part!)));
  const d = schema.devices;
  const rows = await chunked(
    companies.map((c) => c.companyId),
    (part) => db.select({ id: d.id }).from(d).where(and(inArray(d.companyId, part!), isNull(d.deletedAt))),
  );
  return rows.map((r) => r.id);
}

async function snapshot(db: Db, ref: Ref, cursor: number): Promise<FeedPage> {
  const changes = [
    ...(await deviceChanges(db, ref, ALL)),
    ...(await userChanges(db, ref, ALL)),
    ...(await keyChanges(db, ref, {})),
    ...(await scheduleChanges(db, ref, ALL)),
    ...(await firmwareChanges(db, ref, ALL)),
  ];
  return { v: 1, changes, cursor: String(cursor), more: false, reset: true };
}

/** The feed has no history at this cursor (e.g. the database was rebuilt): the gateway restarts from a snapshot. */
export class CursorExpired extends Error {
  constructor() {
    super("cursor_expired");
  }
}

/** Parses `?cursor=&limit=`; a bad limit is a 400, a cursor that is unreadable or past the feed's end a 410. */
export function parseFeedQuery(url: URL): { cursor: number; limit: number } {
  const rawCursor = url.searchParams.get("cursor");
  const rawLimit = url.searchParams.get("limit");
  const cursor = rawCursor == null || rawCursor === "" ? 0 : Number(rawCursor);
  const limit = rawLimit == null || rawLimit === "" ? 500 : Number(rawLimit);
  // An unreadable cursor is answered like an expired one (the gateway's contract): it resyncs from a snapshot.
  if (!Number.isSafeInteger(cursor) || cursor < 0) throw new CursorExpired();
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new ServiceError(400, `limit must be an integer from 1 to ${MAX_LIMIT}`);
  return { cursor, limit };
}

export async function readFeed(db: Db, { cursor, limit }: { cursor: number; limit: number }): Promise<FeedPage> {
  const c = schema.gatewayChanges;
  const [head] = await db.select({ seq: max(c.seq) }).from(c);
  const last = head?.seq ?? 0;
  // The snapshot's cursor is read first: a change racing the snapshot is sent again next page.
  const ref = await loadReference(db);
  if (cursor === 0) return snapshot(db, ref, last);
  if (cursor > last) throw new CursorExpired();

  const rows = await db
    .select({ seq: c.seq, entity: c.entity, entityId: c.entityId })
    .from(c)
    .where(gt(c.seq, cursor))
    .orderBy(asc(c.seq))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const next = page.at(-1)?.seq ?? cursor;

  const idsOf = (entity: string) => [...new Set(page.filter((r) => r.entity === entity).map((r) => r.entityId))];
  const groups = idsOf("group");
  const users = idsOf("user");
  const devices = [...new Set([...idsOf("device"), ...(groups.length ? await companyDeviceIds(db, groups) : [])])];
  const changes = [
    ...(devices.length ? await deviceChanges(db, ref, devices) : []),
    ...(users.length ? await userChanges(db, ref, users) : []),
    ...(idsOf("ekey").length ? await keyChanges(db, ref, { ids: idsOf("ekey") }) : []),
    ...(groups.length ? await keyChanges(db, ref, { groupIds: groups }) : []),
    ...(users.length ? await keyChanges(db, ref, { userIds: users }) : []),
    ...(idsOf("scheduledOpen").length ? await scheduleChanges(db, ref, idsOf("scheduledOpen")) : []),
    ...(idsOf("firmware").length ? await firmwareChanges(db, ref, idsOf("firmware")) : []),
  ];
  return { v: 1, changes, cursor: String(next), more };
}

/** The `gateway_changes` row a service puts in the batch of any change a gateway mirrors. */
export function feedChange(db: Db, row: { companyId: number; entity: (typeof FEED_ENTITIES)[number]; entityId: number | SQL; op: "upsert" | "delete" }) {
  return db.insert(schema.gatewayChanges).values(row);
}
