/**
 * Bulk actions on users (docs/decisions/0035-search-and-bulk-actions.md): give a key or group key,
 * deactivate or reactivate, send invites. Each answers one result per selected id, in the order given;
 * an id that is not a live user of the caller's company is "not found" and nothing of it changes. Every
 * change goes through the same statements as the single-user path, with its own audit entry, and all
 * of them land in one D1 batch (one transaction): all or nothing.
 */
import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Core } from "~core";
import { DEACTIVATED } from "~/schemas/device-groups";
import type { BulkOutcome, BulkRefusal, BulkRowResult } from "~/schemas/bulk";
import type { KeySpec } from "~/schemas/ekeys";
import { newKeyStatements, planKey } from "~/services/ekeys.server";
import { invitingCompany, userInviteStatements } from "~/services/users.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { chunks, inChunks, schema, type Db } from "~/utils/db.server";
import { liveInCompany } from "~/utils/tenant.server";

const u = schema.users;
const k = schema.ekeyAssignments;

export const BULK_ROW_MSG = {
  keyGiven: "key given",
  hasKey: "already has this key",
  notFound: "not found",
  deactivated: "deactivated",
  reactivated: "reactivated",
  alreadyInactive: "already inactive",
  alreadyActive: "already active",
  superAdminOnly: "only a super admin can change a super admin",
  notSelf: "you cannot deactivate your own account",
  inviteSent: "invite sent",
  notPending: "has already completed account setup",
} as const;

type Target = { id: number; displayName: string; email: string; isSentinel: boolean; isSuperAdmin: boolean; isInactive: boolean; accountSetupPending: boolean };

/** The live users of the caller's company among `ids`. */
async function targets(db: Db, auth: Auth, ids: number[]): Promise<Map<number, Target>> {
  const rows = await inChunks(ids, (part) =>
    db
      .select({
        id: u.id,
        displayName: u.displayName,
        email: u.email,
        isSentinel: u.isSentinel,
        isSuperAdmin: u.isSuperAdmin,
        isInactive: u.isInactive,
        accountSetupPending: u.accountSetupPending,
      })
      .from(u)
      .where(liveInCompany(u, auth, inArray(u.id, part))),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** As for one user: only a super admin changes a super admin's account. */
const mayTouch = (auth: Auth, user: Target) => !user.isSuperAdmin || auth.user.isSuperAdmin;

const row = (id: number, user: Target | undefined, outcome: BulkOutcome, message: string): BulkRowResult => ({ id, name: user?.displayName ?? null, outcome, message });
const refused = (id: number, user: Target, reason: BulkRefusal): BulkRowResult => ({ ...row(id, user, "refused", BULK_ROW_MSG[reason]), reason });

/** Runs the collected statements as one batch (D1 refuses an empty one). */
async function runAll(db: Db, statements: unknown[]) {
  if (statements.length) await db.batch(statements as unknown as Parameters<Db["batch"]>[0]);
}

export type BulkKeyInput = KeySpec & { userIds: number[] };

/** The same key (device or group, checked once by the core) to every selected user that has none on it yet. */
export async function giveKeyToUsers(db: Db, auth: Auth, core: Core, input: BulkKeyInput, now: number): Promise<BulkRowResult[]> {
  assertCan(auth, "users", "add");
  const plan = await planKey(db, auth, core, input, now);
  const users = await targets(db, auth, input.userIds);
  const onTarget = plan.target.groupId != null ? and(eq(k.isGroup, true), eq(k.groupId, plan.target.groupId)) : and(eq(k.isGroup, false), eq(k.deviceId, plan.target.deviceId!));
  const holders = new Set(
    (
      await inChunks([...users.keys()], (part) =>
        db
          .select({ userId: k.userId })
          .from(k)
          .where(and(eq(k.companyId, auth.company.id), inArray(k.userId, part), onTarget)),
      )
    ).map((r) => r.userId),
  );
  const statements: unknown[] = [];
  const results = input.userIds.map((id) => {
    const user = users.get(id);
    if (!user) return row(id, user, "notFound", BULK_ROW_MSG.notFound);
    if (holders.has(id)) return row(id, user, "already", BULK_ROW_MSG.hasKey);
    statements.push(...newKeyStatements(db, auth, plan, id, now));
    return row(id, user, "done", BULK_ROW_MSG.keyGiven);
  });
  await runAll(db, statements);
  return results;
}

/** Deactivates (or reactivates) the selected users; a super admin only by a super admin, never oneself. */
export async function setUsersInactive(db: Db, auth: Auth, input: { userIds: number[]; isInactive: boolean }, now: number): Promise<BulkRowResult[]> {
  assertCan(auth, "users", "modify");
  const users = await targets(db, auth, input.userIds);
  const changed: number[] = [];
  const audits: unknown[] = [];
  const results = input.userIds.map((id) => {
    const user = users.get(id);
    if (!user) return row(id, user, "notFound", BULK_ROW_MSG.notFound);
    if (!mayTouch(auth, user)) return refused(id, user, "superAdminOnly");
    if (input.isInactive && id === auth.user.id) return refused(id, user, "notSelf");
    if (user.isInactive === input.isInactive) return row(id, user, "already", input.isInactive ? BULK_ROW_MSG.alreadyInactive : BULK_ROW_MSG.alreadyActive);
    changed.push(id);
    const state = input.isInactive ? BULK_ROW_MSG.deactivated : BULK_ROW_MSG.reactivated;
    audits.push(
      activityInsert(db, {
        companyId: auth.company.id,
        name: "User Modified",
        createdByUserId: auth.user.id,
        targetUserId: id,
        summary: `${user.displayName}: ${state}`,
        details: input.isInactive ? { deactivated: true } : undefined,
        at: now,
      }),
    );
    return row(id, user, "done", state);
  });
  // The users' feed rows come from the update's trigger (decision 0030); ids are cut to D1's parameter limit.
  const updates = chunks(changed).map((part) =>
    db
      .update(u)
      .set({ isInactive: input.isInactive, updatedAt: now })
      .where(liveInCompany(u, auth, inArray(u.id, part))),
  );
  await runAll(db, [...updates, ...audits]);
  return results;
}

/** Queues the invitation mail again for each selected user whose account setup is pending. */
export async function inviteUsers(db: Db, auth: Auth, userIds: number[], ctx: { origin: string; now: number }): Promise<BulkRowResult[]> {
  assertCan(auth, "users", "modify");
  const users = await targets(db, auth, userIds);
  const company = await invitingCompany(db, auth);
  const statements: unknown[] = [];
  const results: BulkRowResult[] = [];
  for (const id of userIds) {
    const user = users.get(id);
    if (!user) results.push(row(id, user, "notFound", BULK_ROW_MSG.notFound));
    else if (!mayTouch(auth, user)) results.push(refused(id, user, "superAdminOnly"));
    else if (!user.accountSetupPending) results.push(row(id, user, "notPending", BULK_ROW_MSG.notPending));
    else {
      statements.push(...(await userInviteStatements(db, auth, user, ctx, company)));
      results.push(row(id, user, "done", BULK_ROW_MSG.inviteSent));
    }
  }
  await runAll(db, statements);
  return results;
}

/** What the bulk form offers to give: the company's configured devices and its active groups. */
export async function keyTargets(db: Db, auth: Auth): Promise<{ groups: { id: number; fullName: string }[]; devices: { id: number; fullName: string }[] }> {
  assertCan(auth, "users");
  const g = schema.deviceGroups;
  const d = schema.devices;
  const [groups, devices] = await db.batch([
    db
      .select({ id: g.id, fullName: g.fullName })
      .from(g)
      .where(liveInCompany(g, auth, ne(g.status, DEACTIVATED)))
      .orderBy(asc(g.fullName)),
    db
      .select({ id: d.id, fullName: d.fullName })
      .from(d)
      .where(liveInCompany(d, auth, eq(d.status, "configured")))
      .orderBy(asc(d.fullName)),
  ]);
  return { groups, devices };
}
