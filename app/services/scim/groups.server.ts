/**
 * SCIM Groups (RFC 7643 §4.2): a directory's groups and their members. A group grants nothing until an
 * admin links it (app/services/scim-links.server.ts); then joining grants the link's keys and role and
 * leaving withdraws them (grants.server.ts), in the same batch as the membership change.
 */
import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import { activityInsert } from "~/utils/activity-insert.server";
import { chunks, countWhere, schema } from "~/utils/db.server";
import { assertVersion, iso, listResponse, resourceId, type ListQuery, type ScimCall } from "./call.server";
import { invalidValue, ScimError } from "./errors";
import { filterSql, type FilterColumn } from "./filter-sql.server";
import { groupGrants, joinStatements, leaveStatements, roleStatements, type Actor } from "./grants.server";
import { parsePatch, type PatchOp } from "./patch";

const g = schema.scimGroups;
const m = schema.scimGroupMembers;
const u = schema.users;
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
const MAX_MEMBERS_PER_CALL = 1000;

type GroupRow = typeof g.$inferSelect;
type Member = { id: number; displayName: string };

const FILTERS: Record<string, FilterColumn> = {
  id: { col: g.id, type: "id" },
  displayname: { col: g.displayName, type: "string" },
  externalid: { col: g.externalId, type: "string", caseExact: true },
};

export const groupVersion = (row: Pick<GroupRow, "version">) => `W/"${row.version}"`;

function toScimGroup(row: GroupRow, members: Member[] | null, base: string) {
  return {
    schemas: [GROUP_SCHEMA],
    id: String(row.id),
    ...(row.externalId != null && { externalId: row.externalId }),
    displayName: row.displayName,
    ...(members && { members: members.map((p) => ({ value: String(p.id), display: p.displayName, $ref: `${base}/Users/${p.id}`, type: "User" })) }),
    meta: { resourceType: "Group", created: iso(row.createdAt), lastModified: iso(row.updatedAt), location: `${base}/Groups/${row.id}`, version: groupVersion(row) },
  };
}

/** Members are left out when the directory asks (`excludedAttributes=members`, as Okta and Entra do for lists). */
const wantsMembers = (url: URL) =>
  !(url.searchParams.get("excludedAttributes") ?? "")
    .toLowerCase()
    .split(",")
    .some((a) => a.trim() === "members");

async function membersOf(call: ScimCall, groupIds: number[]): Promise<Map<number, Member[]>> {
  const out = new Map<number, Member[]>(groupIds.map((id) => [id, []]));
  for (const ids of chunks(groupIds)) {
    const rows = await call.db
      .select({ groupId: m.groupId, id: u.id, displayName: u.displayName })
      .from(m)
      .innerJoin(u, and(eq(u.id, m.userId), isNull(u.deletedAt)))
      .where(and(eq(m.companyId, call.dir.companyId), inArray(m.groupId, ids)))
      .orderBy(asc(u.id));
    for (const r of rows) out.get(r.groupId)!.push({ id: r.id, displayName: r.displayName });
  }
  return out;
}

export async function listScimGroups(call: ScimCall, q: ListQuery) {
  const where = and(eq(g.companyId, call.dir.companyId), q.filter ? filterSql(q.filter, FILTERS) : undefined) as SQL;
  const page = call.db
    .select()
    .from(g)
    .where(where)
    .orderBy(asc(g.id))
    .limit(q.count)
    .offset(q.startIndex - 1);
  const [[{ n: total }], rows] = await call.db.batch([countWhere(call.db, g, where), page]);
  const members = wantsMembers(new URL(call.request.url))
    ? await membersOf(
        call,
        rows.map((r) => r.id),
      )
    : null;
  return listResponse(
    total,
    q,
    rows.map((r) => toScimGroup(r, members?.get(r.id) ?? null, call.base)),
  );
}

async function findGroup(call: ScimCall, rawId: string): Promise<GroupRow> {
  const id = resourceId(rawId, "Group");
  const row = await call.db
    .select()
    .from(g)
    .where(and(eq(g.companyId, call.dir.companyId), eq(g.id, id)))
    .get();
  if (!row) throw new ScimError(404, `Group ${rawId} not found`);
  return row;
}

export async function getScimGroup(call: ScimCall, rawId: string) {
  const row = await findGroup(call, rawId);
  const members = wantsMembers(new URL(call.request.url)) ? ((await membersOf(call, [row.id])).get(row.id) ?? []) : null;
  return toScimGroup(row, members, call.base);
}

// ---------------------------------------------------------------- reading what the directory sends

function displayName(v: unknown): string {
  if (typeof v !== "string" || !v.trim()) return invalidValue("displayName is required");
  const s = v.trim();
  if (s.length > 200) invalidValue("displayName is at most 200 characters");
  return s;
}

function externalId(v: unknown): string | null {
  if (v == null) return null;
  if (typeof v !== "string" || v.length > 255) return invalidValue("externalId is a string of at most 255 characters");
  return v;
}

/** Member ids of a `members` value (`[{"value":"12"}]`). */
function memberValues(v: unknown): number[] {
  if (v == null) return [];
  const list = Array.isArray(v) ? v : [v];
  if (list.length > MAX_MEMBERS_PER_CALL) throw new ScimError(400, `At most ${MAX_MEMBERS_PER_CALL} members in one call`, "tooMany");
  return list.map((item) => {
    const raw = String((item as { value?: unknown })?.value ?? "");
    const id = Number(raw);
    if (!/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(id)) invalidValue(`Member ${raw || "(none)"} is not a user of this service`);
    return id;
  });
}

type GroupState = { displayName: string; externalId: string | null; members: Set<number> };

function stateFromResource(body: unknown): GroupState {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ScimError(400, "A Group is a JSON object", "invalidSyntax");
  const b = body as Record<string, unknown>;
  return { displayName: displayName(b.displayName), externalId: externalId(b.externalId), members: new Set(memberValues(b.members)) };
}

function applyGroupPatch(state: GroupState, ops: PatchOp[]): GroupState {
  const s = { ...state, members: new Set(state.members) };
  for (const { op, path, value } of ops) {
    if (!path || path.extension) continue;
    switch (path.attr) {
      case "displayname":
        if (op === "remove") throw new ScimError(400, "displayName cannot be removed", "mutability");
        s.displayName = displayName(value);
        break;
      case "externalid":
        s.externalId = op === "remove" ? null : externalId(value);
        break;
      case "members": {
        // Okta: remove `members[value eq "12"]`; Entra: remove `members` with a value list; no value removes all.
        const named = path.filter
          ? path.filter.attr === "value"
            ? memberValues([{ value: path.filter.value }])
            : invalidValue("Members are chosen by value")
          : memberValues(value);
        if (op === "remove") {
          if (!path.filter && value == null) s.members.clear();
          else for (const id of named) s.members.delete(id);
        } else if (op === "replace" && !path.filter) {
          s.members = new Set(named);
        } else {
          for (const id of named) s.members.add(id);
        }
        break;
      }
      default:
        break;
    }
  }
  return s;
}

// ---------------------------------------------------------------- writing

async function assertNameFree(call: ScimCall, name: string, exceptId?: number) {
  const same = await call.db
    .select({ id: g.id })
    .from(g)
    .where(and(eq(g.companyId, call.dir.companyId), sql`lower(${g.displayName}) = ${name.toLowerCase()}`, exceptId ? ne(g.id, exceptId) : undefined))
    .limit(1);
  if (same.length) throw new ScimError(409, `A group named ${name} exists`, "uniqueness");
}

/** Every member must be a user the directory reaches (its company, live, not a super admin). */
async function assertMembers(call: ScimCall, ids: number[]) {
  for (const part of chunks(ids)) {
    const found = await call.db
      .select({ id: u.id })
      .from(u)
      .where(and(eq(u.companyId, call.dir.companyId), isNull(u.deletedAt), eq(u.isSuperAdmin, false), inArray(u.id, part)));
    const known = new Set(found.map((r) => r.id));
    const missing = part.find((id) => !known.has(id));
    if (missing !== undefined) invalidValue(`Member ${missing} is not a user of this service`);
  }
}

const actorOf = (call: ScimCall): Actor => ({ companyId: call.dir.companyId, userId: null, directory: call.dir.tokenName });

async function writeGroup(call: ScimCall, before: GroupRow | null, current: Set<number>, s: GroupState): Promise<GroupRow> {
  if (!before || before.displayName.toLowerCase() !== s.displayName.toLowerCase()) await assertNameFree(call, s.displayName, before?.id);
  const joined = [...s.members].filter((id) => !current.has(id));
  const left = [...current].filter((id) => !s.members.has(id));
  await assertMembers(call, joined);
  const { db, now } = call;
  const companyId = call.dir.companyId;
  let row: GroupRow;
  if (before) {
    const same = before.displayName === s.displayName && before.externalId === s.externalId && !joined.length && !left.length;
    if (same) return before;
    row = { ...before, displayName: s.displayName, externalId: s.externalId, version: before.version + 1, updatedAt: now };
  } else {
    [row] = await db.insert(g).values({ companyId, displayName: s.displayName, externalId: s.externalId, createdAt: now, updatedAt: now }).returning();
  }
  const grants = await groupGrants(db, call.core, companyId, row.id, call.dir.zone, now);
  const actor = actorOf(call);
  await db.batch([
    db
      .update(g)
      .set({ displayName: row.displayName, externalId: row.externalId, version: row.version, updatedAt: row.updatedAt })
      .where(and(eq(g.companyId, companyId), eq(g.id, row.id))),
    ...joined.map((userId) => db.insert(m).values({ groupId: row.id, userId, companyId }).onConflictDoNothing()),
    ...chunks(left).map((ids) => db.delete(m).where(and(eq(m.companyId, companyId), eq(m.groupId, row.id), inArray(m.userId, ids)))),
    ...joinStatements(db, actor, grants, joined, now),
    ...leaveStatements(db, actor, grants, left, now),
    ...(grants.roleId != null ? roleStatements(db, companyId, [...joined, ...left], now) : []),
    activityInsert(db, {
      companyId,
      name: "Directory Group Changed",
      summary: `${row.displayName}: ${before ? "changed" : "created"}, ${joined.length} joined, ${left.length} left`,
      details: { directory: call.dir.tokenName, joined, left },
      at: now,
    }),
  ]);
  return row;
}

async function currentMembers(call: ScimCall, groupId: number) {
  return new Set(((await membersOf(call, [groupId])).get(groupId) ?? []).map((p) => p.id));
}

export async function createScimGroup(call: ScimCall, body: unknown) {
  const row = await writeGroup(call, null, new Set(), stateFromResource(body));
  return getScimGroup(call, String(row.id));
}

export async function replaceScimGroup(call: ScimCall, rawId: string, body: unknown) {
  const before = await findGroup(call, rawId);
  assertVersion(call.request, groupVersion(before));
  await writeGroup(call, before, await currentMembers(call, before.id), stateFromResource(body));
  return getScimGroup(call, rawId);
}

export async function patchScimGroup(call: ScimCall, rawId: string, body: unknown) {
  const before = await findGroup(call, rawId);
  assertVersion(call.request, groupVersion(before));
  const ops = parsePatch(body);
  const current = await currentMembers(call, before.id);
  await writeGroup(call, before, current, applyGroupPatch({ displayName: before.displayName, externalId: before.externalId, members: current }, ops));
  return getScimGroup(call, rawId);
}

/** DELETE /Groups/:id: every member leaves (what the group granted is withdrawn), then the group and its links go. */
export async function deleteScimGroup(call: ScimCall, rawId: string) {
  const before = await findGroup(call, rawId);
  assertVersion(call.request, groupVersion(before));
  const { db, now } = call;
  const companyId = call.dir.companyId;
  const left = [...(await currentMembers(call, before.id))];
  const grants = await groupGrants(db, call.core, companyId, before.id, call.dir.zone, now);
  await db.batch([
    db.delete(m).where(and(eq(m.companyId, companyId), eq(m.groupId, before.id))),
    db.delete(schema.scimGroupDeviceGroups).where(and(eq(schema.scimGroupDeviceGroups.companyId, companyId), eq(schema.scimGroupDeviceGroups.scimGroupId, before.id))),
    db.delete(g).where(and(eq(g.companyId, companyId), eq(g.id, before.id))),
    ...leaveStatements(db, actorOf(call), grants, left, now),
    ...(grants.roleId != null ? roleStatements(db, companyId, left, now) : []),
    activityInsert(db, { companyId, name: "Directory Group Changed", summary: `${before.displayName}: removed`, details: { directory: call.dir.tokenName, left }, at: now }),
  ]);
}
