/**
 * Staged firmware rollouts (decision 0094): a release goes to its device type's boards wave by wave.
 * Gateways offer it only to boards of an open wave (the plan travels on the release's feed record, and
 * gateway/src/firmware/rollout-plan.js says who is in which wave, here and there alike). The console
 * judges health, because only it sees every cell's results:
 *   - a failed install (`firmware.result` with ok false), or an installed board not online again within
 *     `onlineMinutes`, is a failure of its wave; failures before `countedFrom` (the last resume) do not count;
 *   - when an open wave's failures reach `failCount` boards or `failPercent` of the wave, the rollout pauses
 *     itself ("Firmware Rollout Paused", which alerts can watch); ingestion checks this on every result;
 *   - the cron opens the next wave once the current one has been open and healthy for `soakMinutes`, and
 *     completes the rollout after the last wave: the release becomes its type's active one.
 * Releases are platform-wide, so the guard is the `company` module, as for the firmware screens.
 */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { ROLLOUT_MSG, type StartRolloutInput } from "~/schemas/firmware-rollouts";
import { activityInsert, activityInsertWhen, type ActivityEntry } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, inChunks, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { waveOf } from "../../gateway/src/firmware/rollout-plan.js";
import { activationStatements } from "./firmware.server";

const r = schema.firmwareRollouts;
const f = schema.firmwareReleases;
type Rollout = typeof r.$inferSelect;

export const ROLLOUT_PAGE_SIZE = 25;
export const OPEN_STATES = ["running", "paused"] as const;

export type WaveHealth = { wave: number; percent: number; boards: number; installed: number; failed: number; open: boolean };

/** What a rollout's waves hold now: boards, installs and failures counted since the last resume. */
async function waveHealth(db: Db, x: Rollout, now: number): Promise<WaveHealth[]> {
  const d = schema.devices;
  const p = schema.firmwareProgress;
  // Boards of a company sitting rollouts out are in no wave (the gateway judges the date in each door's
  // zone; by UTC here, so a wave's size may be off by those boards for a few hours around the date).
  const cs = schema.companySettings;
  const today = new Date(now).toISOString().slice(0, 10);
  const [boards, progress] = await db.batch([
    db
      .select({ id: d.id })
      .from(d)
      .leftJoin(cs, eq(cs.companyId, d.companyId))
      .where(and(eq(d.deviceTypeId, x.deviceTypeId), eq(d.status, "configured"), isNull(d.deletedAt), sql`coalesce(${cs.rolloutDeferredUntil}, '') < ${today}`)),
    db.select({ deviceId: p.deviceId, state: p.state, failedAt: p.failedAt, installedAt: p.installedAt }).from(p).where(eq(p.releaseId, x.releaseId)),
  ]);
  const byDevice = new Map(progress.map((row) => [row.deviceId, row]));
  // An install is healthy once its board is online again (a board restarts into the new image).
  const due = progress.filter((row) => row.state === "installed" && row.installedAt != null && now - row.installedAt > x.onlineMinutes * 60_000).map((row) => row.deviceId);
  const overdue = new Set(due);
  const pr = schema.devicePresence;
  const online = new Set(
    (
      await inChunks(due, (part) =>
        db
          .selectDistinct({ id: pr.deviceId })
          .from(pr)
          .where(and(inArray(pr.deviceId, part), eq(pr.online, true))),
      )
    ).map((row) => row.id),
  );
  const plan = { id: x.id, waves: x.waves, canary: x.canary.map(String) };
  const waves: WaveHealth[] = x.waves.map((percent, wave) => ({ wave, percent, boards: 0, installed: 0, failed: 0, open: wave <= x.wave }));
  for (const b of boards) {
    const w = waves[waveOf(plan, String(b.id))];
    w.boards++;
    const row = byDevice.get(b.id);
    if (!row) continue;
    if (row.state === "installed") w.installed++;
    const failedInstall = row.failedAt != null && row.failedAt >= x.countedFrom;
    const notBack = row.state === "installed" && row.installedAt != null && row.installedAt >= x.countedFrom && overdue.has(b.id) && !online.has(b.id);
    if (failedInstall || notBack) w.failed++;
  }
  return waves;
}

/** The first open wave whose failures reach a threshold, or undefined. */
function trippedWave(x: Rollout, waves: WaveHealth[]) {
  return waves.find((w) => w.open && w.failed > 0 && ((x.failCount != null && w.failed >= x.failCount) || (x.failPercent != null && w.failed * 100 >= x.failPercent * w.boards)));
}

export type RolloutRow = Rollout & { version: string; deviceType: string; previousVersion: string | null; health: WaveHealth[] };

/** Rollouts, newest first, each with its waves' health. */
export async function listRollouts(db: Db, auth: Auth, now: number, { page = 1, pageSize = ROLLOUT_PAGE_SIZE } = {}) {
  assertCan(auth, "company");
  const prev = schema.firmwareReleases;
  const [rows, [total]] = await db.batch([
    db
      .select({ rollout: r, version: f.version, deviceType: schema.deviceTypes.deviceCode })
      .from(r)
      .innerJoin(f, eq(f.id, r.releaseId))
      .leftJoin(schema.deviceTypes, eq(schema.deviceTypes.id, r.deviceTypeId))
      .orderBy(desc(r.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    countWhere(db, r, undefined),
  ]);
  const prevIds = [...new Set(rows.map((x) => x.rollout.previousReleaseId).filter((id): id is number => id != null))];
  const versions = new Map(
    (await inChunks(prevIds, (part) => db.select({ id: prev.id, version: prev.version }).from(prev).where(inArray(prev.id, part)))).map((x) => [x.id, x.version]),
  );
  const out: RolloutRow[] = [];
  for (const x of rows) {
    out.push({
      ...x.rollout,
      version: x.version,
      deviceType: x.deviceType ?? "",
      previousVersion: x.rollout.previousReleaseId == null ? null : (versions.get(x.rollout.previousReleaseId) ?? null),
      health: await waveHealth(db, x.rollout, now),
    });
  }
  return { rows: out, total: total.n };
}

const entry = (
  auth: Auth | null,
  x: Pick<Rollout, "id" | "releaseId" | "companyId">,
  version: string,
  name: string,
  summary: string,
  details: Record<string, unknown>,
  now: number,
): ActivityEntry => ({
  companyId: x.companyId,
  name,
  operationType: "Admin",
  createdByUserId: auth?.user.id ?? null,
  summary,
  details: { rolloutId: x.id, releaseId: x.releaseId, version, ...details },
  at: now,
});

/** The open rollout of a device type, if any. */
export async function openRolloutOf(db: Db, deviceTypeId: number | null) {
  if (deviceTypeId == null) return undefined;
  const [x] = await db
    .select({ id: r.id })
    .from(r)
    .where(and(eq(r.deviceTypeId, deviceTypeId), inArray(r.state, OPEN_STATES)));
  return x;
}

export async function startRollout(db: Db, auth: Auth, input: StartRolloutInput, now: number) {
  assertCan(auth, "company", "modify");
  const [release] = await db
    .select()
    .from(f)
    .where(and(eq(f.id, input.releaseId), isNull(f.deletedAt)));
  if (!release) throw new ServiceError(404, "Firmware not found", { fieldErrors: { releaseId: [ROLLOUT_MSG.release] } });
  if (release.deviceTypeId == null) throw new ServiceError(400, ROLLOUT_MSG.noType, { fieldErrors: { releaseId: [ROLLOUT_MSG.noType] } });
  if (release.isActive) throw new ServiceError(409, ROLLOUT_MSG.isActive, { fieldErrors: { releaseId: [ROLLOUT_MSG.isActive] } });
  if (await openRolloutOf(db, release.deviceTypeId)) throw new ServiceError(409, ROLLOUT_MSG.open);
  const canary = [...new Set(input.canary)];
  if (canary.length > 0) {
    const d = schema.devices;
    const [{ n }] = await countWhere(db, d, and(inArray(d.id, canary), eq(d.deviceTypeId, release.deviceTypeId), eq(d.status, "configured"), isNull(d.deletedAt)));
    if (n !== canary.length) throw new ServiceError(400, ROLLOUT_MSG.canaryType, { fieldErrors: { canary: [ROLLOUT_MSG.canaryType] } });
  }
  const [previous] = await db
    .select({ id: f.id })
    .from(f)
    .where(and(eq(f.deviceTypeId, release.deviceTypeId), eq(f.isActive, true), isNull(f.deletedAt)));
  try {
    const [inserted] = await db.batch([
      db
        .insert(r)
        .values({
          releaseId: release.id,
          deviceTypeId: release.deviceTypeId,
          previousReleaseId: previous?.id ?? null,
          waves: input.waves,
          canary,
          soakMinutes: input.soakMinutes,
          onlineMinutes: input.onlineMinutes,
          failPercent: input.failPercent ?? null,
          failCount: input.failCount ?? null,
          state: "running",
          wave: 0,
          waveStartedAt: now,
          countedFrom: now,
          companyId: auth.company.id,
          createdByUserId: auth.user.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: r.id }),
      activityInsert(db, {
        companyId: auth.company.id,
        name: "Firmware Rollout Started",
        operationType: "Admin",
        createdByUserId: auth.user.id,
        summary: `Firmware ${release.version} rollout started`,
        details: { releaseId: release.id, version: release.version, waves: input.waves, canary },
        at: now,
      }),
    ]);
    return { id: inserted[0].id };
  } catch (e) {
    // Two starts at once: the unique index on open rollouts per type lets one through.
    if (/UNIQUE constraint failed/.test(String((e as Error)?.message ?? e) + String((e as Error)?.cause ?? ""))) throw new ServiceError(409, ROLLOUT_MSG.open);
    throw e;
  }
}

async function rolloutWithVersion(db: Db, id: number) {
  const [row] = await db.select({ rollout: r, version: f.version }).from(r).innerJoin(f, eq(f.id, r.releaseId)).where(eq(r.id, id));
  return row ?? notFound(ROLLOUT_MSG.notFound);
}

/** Moves a rollout from one state to another with its audit row, only if it is still in `from` when written. */
async function transition(db: Db, auth: Auth, id: number, from: Rollout["state"][], set: Partial<Rollout>, name: string, verb: string, now: number, refusal: string) {
  assertCan(auth, "company", "modify");
  const { rollout: x, version } = await rolloutWithVersion(db, id);
  if (!from.includes(x.state)) throw new ServiceError(409, OPEN_STATES.includes(x.state as never) ? refusal : ROLLOUT_MSG.ended);
  const still = and(eq(r.id, id), inArray(r.state, from));
  const [, updated] = await db.batch([
    activityInsertWhen(db, entry(auth, x, version, name, `Firmware ${version} rollout ${verb}`, { wave: x.wave }, now), sql`exists (select 1 from ${r} where ${still})`),
    db
      .update(r)
      .set({ ...set, updatedAt: now })
      .where(still)
      .returning({ id: r.id }),
  ]);
  if (updated.length === 0) throw new ServiceError(409, refusal);
}

export const pauseRollout = (db: Db, auth: Auth, id: number, now: number) =>
  transition(db, auth, id, ["running"], { state: "paused", pausedReason: "" }, "Firmware Rollout Paused", "paused", now, ROLLOUT_MSG.notRunning);

/** Resumes where it stopped: failures so far were dealt with, and the wave's healthy time starts again. */
export const resumeRollout = (db: Db, auth: Auth, id: number, now: number) =>
  transition(
    db,
    auth,
    id,
    ["paused"],
    { state: "running", pausedReason: "", countedFrom: now, waveStartedAt: now },
    "Firmware Rollout Resumed",
    "resumed",
    now,
    ROLLOUT_MSG.notPaused,
  );

/** Ends it: the plan leaves the feed, so every board of the type is offered the active (previous) release again. */
export const abortRollout = (db: Db, auth: Auth, id: number, now: number) =>
  transition(db, auth, id, ["running", "paused"], { state: "aborted", endedAt: now }, "Firmware Rollout Aborted", "aborted", now, ROLLOUT_MSG.ended);

/**
 * Judges running rollouts (all, or those of `releaseIds`): pauses one whose open wave's failures reach a
 * threshold; with `openWaves`, opens the next wave of one whose current wave stayed healthy for its soak
 * time, or completes it after the last. Each change is written only if the rollout is still where it was read.
 */
export async function checkRollouts(db: Db, now: number, { releaseIds, openWaves }: { releaseIds?: number[]; openWaves: boolean }) {
  const rows = await db
    .select({ rollout: r, version: f.version })
    .from(r)
    .innerJoin(f, eq(f.id, r.releaseId))
    .where(and(eq(r.state, "running"), releaseIds ? inArray(r.releaseId, releaseIds) : undefined));
  for (const { rollout: x, version } of rows) {
    const health = await waveHealth(db, x, now);
    const still = and(eq(r.id, x.id), eq(r.state, "running"), eq(r.wave, x.wave));
    const guard = sql`exists (select 1 from ${r} where ${still})`;
    const tripped = trippedWave(x, health);
    if (tripped) {
      const reason = `${tripped.failed} of ${tripped.boards} boards failed in wave ${tripped.wave + 1}`;
      await db.batch([
        activityInsertWhen(
          db,
          entry(
            null,
            x,
            version,
            "Firmware Rollout Paused",
            `Firmware ${version} rollout paused: ${reason}`,
            { wave: tripped.wave, failed: tripped.failed, boards: tripped.boards, automatic: true },
            now,
          ),
          guard,
        ),
        db.update(r).set({ state: "paused", pausedReason: reason, updatedAt: now }).where(still),
      ]);
      continue;
    }
    if (!openWaves || now < x.waveStartedAt + x.soakMinutes * 60_000) continue;
    if (x.wave < x.waves.length - 1) {
      const next = x.wave + 1;
      await db.batch([
        activityInsertWhen(
          db,
          entry(null, x, version, "Firmware Rollout Wave Opened", `Firmware ${version} rollout: wave ${next + 1} of ${x.waves.length} opened`, { wave: next }, now),
          guard,
        ),
        db.update(r).set({ wave: next, waveStartedAt: now, updatedAt: now }).where(still),
      ]);
    } else {
      await db.batch([
        activityInsertWhen(db, entry(null, x, version, "Firmware Rollout Completed", `Firmware ${version} rollout completed`, {}, now), guard),
        // The release becomes its type's active one in the same transaction as the rollout ends.
        ...activationStatements(db, x.deviceTypeId, x.releaseId, guard),
        db.update(r).set({ state: "completed", endedAt: now, updatedAt: now }).where(still),
      ]);
    }
  }
}

/** Releases a rollout may start with: live, with a device type, not active, their type without an open rollout. */
export async function rolloutReleases(db: Db, auth: Auth) {
  assertCan(auth, "company", "modify");
  const t = schema.deviceTypes;
  return db
    .select({ id: f.id, version: f.version, deviceType: t.deviceCode })
    .from(f)
    .innerJoin(t, eq(t.id, f.deviceTypeId))
    .where(and(isNull(f.deletedAt), eq(f.isActive, false), sql`not exists (select 1 from ${r} where ${r.deviceTypeId} = ${f.deviceTypeId} and ${inArray(r.state, OPEN_STATES)})`))
    .orderBy(desc(f.createdAt), desc(f.id))
    .limit(200);
}
