/**
 * Remote commands from the console to a board (decision 0034, docs/gateway-api.md §4).
 *
 * An admin's unlock is a `device_commands` row, written with its audit entry in one batch. The gateway
 * that holds the board's MQTT connection claims it (`claimCommands`: one UPDATE … RETURNING, so of
 * several gateways polling at once exactly one gets it) and publishes it to `boards/{id}/cmd` with the
 * row's expiry. The board's `command.result` event finishes it (`commandResultStatements`, run in the
 * event batch); a command nobody answered in time is failed as "expired" (`settleExpired`), with a
 * "Command Failed" activity in the same batch.
 */
import { and, desc, eq, gt, inArray, lte, sql, type SQL } from "drizzle-orm";
import { LOCKDOWN_MSG } from "~/schemas/lockdown";
import { doorLockedDown } from "./lockdown.server";
import { lockdownCoversSql } from "./device-status.server";
import { COMMAND_MSG, commandIdSchema, unlockSchema } from "~/schemas/device-commands";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { chunks, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import type { ClaimedCommand } from "../../gateway/src/protocol/wire";
import { inCompany, liveInCompany } from "~/utils/tenant.server";

const { deviceCommands: c, devices: d } = schema;
const MODULE = "devices";
const OPEN = ["pending", "sent"] as const;

/** The id a command travels under on MQTT and comes back with in `command.result` (`data.cmd`). */
export const wireCommandId = (id: number) => `console.${id}`;
export function parseWireCommandId(cmd: unknown): number | null {
  const m = typeof cmd === "string" ? /^console\.(\d{1,15})$/.exec(cmd) : null;
  return m ? Number(m[1]) : null;
}

const commandColumns = {
  id: c.id,
  deviceId: c.deviceId,
  command: c.command,
  status: c.status,
  error: c.error,
  createdAt: c.createdAt,
  expiresAt: c.expiresAt,
  finishedAt: c.finishedAt,
};
export type DeviceCommand = { [K in keyof typeof commandColumns]: (typeof c.$inferSelect)[K] };

/**
 * Fails the open commands whose time is up (all, or those matching `scope`) and records a "Command
 * Failed" activity for each, in one batch: both statements pick the same rows inside one transaction,
 * and the activity's event id makes a second run harmless.
 */
export async function settleExpired(db: Db, now: number, scope?: SQL) {
  const due = and(inArray(c.status, OPEN), lte(c.expiresAt, now), scope) as SQL;
  const a = schema.activityLogs;
  const label = sql`coalesce(nullif(${d.fullName}, ''), 'device ' || ${c.deviceId})`;
  const wireId = sql`'console.' || ${c.id}`;
  // Every activity_logs column in table order (drizzle's insert … select names them all).
  const rows = sql`select null, ${c.companyId}, ${c.deviceId} || '/console/cmd.' || ${c.id} || '.expired',
      (select id from activity_types where name = 'Command Failed'), 'Device', ${c.requestedByUserId}, null, ${c.deviceId}, null,
      'Remote unlock failed on ' || ${label} || ': ' || ${COMMAND_MSG.expired},
      json_object('type', 'command.result', 'cmd', ${wireId}, 'ok', json('false'), 'error', 'expired'), null, ${c.expiresAt}, ${now}
    from ${c} left join ${d} on ${d.id} = ${c.deviceId}
    where ${due}`;
  await db.batch([db.insert(a).select(rows).onConflictDoNothing({ target: a.eventId }), db.update(c).set({ status: "failed", error: "expired", finishedAt: now }).where(due)]);
}

/**
 * Withdraws the open unlocks of the doors a lockdown in force covers (all, or those matching `scope`), each
 * failed as "lockdown" with a "Command Failed" entry: statements for the caller's batch, after the one that
 * starts the lockdown (`startPlan`) or before a gateway claims (`claimCommands`), so an unlock asked just
 * before a lockdown, or racing its start, never reaches a board after it.
 */
export function failLockedDownStatements(db: Db, now: number, scope?: SQL) {
  const covered = and(inArray(c.status, OPEN), scope, sql`exists (select 1 from ${d} where ${d.id} = ${c.deviceId} and ${lockdownCoversSql(now, "lockdown")})`) as SQL;
  const a = schema.activityLogs;
  const label = sql`coalesce(nullif(${d.fullName}, ''), 'device ' || ${c.deviceId})`;
  const rows = sql`select null, ${c.companyId}, ${c.deviceId} || '/console/cmd.' || ${c.id} || '.lockdown',
      (select id from activity_types where name = 'Command Failed'), 'Device', ${c.requestedByUserId}, null, ${c.deviceId}, null,
      'Remote unlock failed on ' || ${label} || ': ' || ${COMMAND_MSG.lockdown},
      json_object('type', 'command.result', 'cmd', 'console.' || ${c.id}, 'ok', json('false'), 'error', 'lockdown'), null, ${now}, ${now}
    from ${c} join ${d} on ${d.id} = ${c.deviceId}
    where ${covered}`;
  return [db.insert(a).select(rows).onConflictDoNothing({ target: a.eventId }), db.update(c).set({ status: "failed", error: "lockdown", finishedAt: now }).where(covered)] as const;
}

async function findDevice(db: Db, auth: Auth, id: number) {
  const [row] = await db
    .select({ id: d.id, fullName: d.fullName, serialNumber: d.serialNumber, status: d.status })
    .from(d)
    .where(liveInCompany(d, auth, eq(d.id, id)))
    .limit(1);
  return row ?? notFound(COMMAND_MSG.deviceNotFound);
}

/**
 * Queues an unlock for one of the caller's configured devices, expiring `ttlMs` later (`unlockTtlFor`);
 * one open command per device at a time.
 */
export async function requestUnlock(db: Db, auth: Auth, input: unknown, now: number, ttlMs: number): Promise<DeviceCommand> {
  assertCan(auth, MODULE, "modify");
  const { id } = parseInput(unlockSchema, input);
  const device = await findDevice(db, auth, id);
  if (device.status !== "configured") throw new ServiceError(409, COMMAND_MSG.notConfigured);
  // A door in a lockdown's scope stays shut, whoever asks (issue 31); evacuation doors are open already.
  if (await doorLockedDown(db, auth.company.id, id, now)) throw new ServiceError(409, LOCKDOWN_MSG.unlockRefused);
  await settleExpired(db, now, eq(c.deviceId, id));
  const [open] = await db
    .select({ id: c.id })
    .from(c)
    .where(and(eq(c.deviceId, id), inArray(c.status, OPEN)))
    .limit(1);
  if (open) throw new ServiceError(409, COMMAND_MSG.inProgress);
  const name = device.fullName || device.serialNumber;
  const [[row]] = await db.batch([
    db
      .insert(c)
      .values({ companyId: auth.company.id, deviceId: id, command: "unlock", requestedByUserId: auth.user.id, expiresAt: now + ttlMs, createdAt: now })
      .returning(commandColumns),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Remote Unlock Requested",
      createdByUserId: auth.user.id,
      targetDeviceId: id,
      summary: `Remote unlock requested for ${name}`,
      details: { command: "unlock", expiresAt: now + ttlMs },
      at: now,
    }),
  ]);
  return row;
}

/** One of the caller's commands, with its expiry applied first. */
export async function getCommand(db: Db, auth: Auth, input: unknown, now: number): Promise<DeviceCommand> {
  assertCan(auth, MODULE);
  const { commandId } = parseInput(commandIdSchema, input);
  await settleExpired(db, now, inCompany(c, auth, eq(c.id, commandId)));
  const [row] = await db
    .select(commandColumns)
    .from(c)
    .where(inCompany(c, auth, eq(c.id, commandId)))
    .limit(1);
  return row ?? notFound(COMMAND_MSG.commandNotFound);
}

/** Who asked for a command, as the details page names them (null once the user is gone). */
const requestedBy = sql<string | null>`(select ${schema.users.displayName} from ${schema.users} where ${schema.users.id} = ${c.requestedByUserId})`;

/** The device's latest command with who asked for it (for its details page), or null. The device is checked by the caller. */
export async function latestCommand(db: Db, auth: Auth, deviceId: number, now: number): Promise<(DeviceCommand & { requestedBy: string | null }) | null> {
  assertCan(auth, MODULE);
  await settleExpired(db, now, inCompany(c, auth, eq(c.deviceId, deviceId)));
  const [row] = await db
    .select({ ...commandColumns, requestedBy })
    .from(c)
    .where(inCompany(c, auth, eq(c.deviceId, deviceId)))
    .orderBy(desc(c.id))
    .limit(1);
  return row ?? null;
}

/**
 * Hands the open, unexpired commands of `boardIds` (the boards connected to the calling gateway) to that
 * gateway. One UPDATE … RETURNING per chunk: a row moves from pending to sent once, so when several
 * gateways ask for the same board only one of them gets the command.
 */
export async function claimCommands(db: Db, gatewayId: number, boardIds: readonly string[], now: number): Promise<ClaimedCommand[]> {
  const ids = [...new Set(boardIds.filter((b) => /^\d{1,15}$/.test(b)).map(Number))];
  if (ids.length === 0) return [];
  // A door a lockdown covers gets no unlock: one asked while the lockdown was starting is failed here.
  const withdrawn = chunks(ids).flatMap((part) => failLockedDownStatements(db, now, inArray(c.deviceId, part)));
  const claims = chunks(ids).map((part) =>
    db
      .update(c)
      .set({ status: "sent", claimedBy: gatewayId, claimedAt: now })
      .where(and(eq(c.status, "pending"), gt(c.expiresAt, now), inArray(c.deviceId, part)))
      .returning({ id: c.id, deviceId: c.deviceId, command: c.command, expiresAt: c.expiresAt }),
  );
  const results = (await db.batch([...withdrawn, ...claims] as unknown as [never, ...never[]])).slice(withdrawn.length) as {
    id: number;
    deviceId: number;
    command: "unlock";
    expiresAt: number;
  }[][];
  return results.flat().map((r) => ({ id: wireCommandId(r.id), boardId: String(r.deviceId), cmd: r.command, args: {}, expiresAt: r.expiresAt, expiresInMs: r.expiresAt - now }));
}

/**
 * The board's answer finishes a command it was sent: only its own (the device the event came from) and
 * only once (a finished or expired command keeps its outcome). Runs in the event batch.
 */
export function commandResultStatements(db: Db, results: readonly { deviceId: number; cmd: unknown; ok: boolean; error?: unknown }[], now: number) {
  return results.flatMap((r) => {
    const id = parseWireCommandId(r.cmd);
    if (id === null) return [];
    const error = r.ok ? null : typeof r.error === "string" && r.error ? r.error.slice(0, 200) : "failed";
    return [
      db
        .update(c)
        .set({ status: r.ok ? "succeeded" : "failed", error, finishedAt: now })
        .where(and(eq(c.id, id), eq(c.deviceId, r.deviceId), eq(c.status, "sent"))),
    ];
  });
}
