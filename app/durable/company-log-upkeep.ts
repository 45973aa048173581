/**
 * A company log's daily upkeep (docs/decisions/0049-activity-hot-window-archive.md): archive every closed
 * day that has rows the archive lacks, apply the company's retention policy, and drop from the store the
 * archived days older than its hot window. Each step writes R2 first and records it in the store after,
 * so a run cut off anywhere is run again: an object is rewritten whole, a delete finds less to delete.
 */
import { anonymiseDay, dayOf, DAY_MS, deleteDay, eraseFromDay, mergeDay, readDay, writeDay, type ArchivedDay, type Values } from "./company-log-archive";
import { HOT_DAYS, RETENTION_DAYS, type RetentionAction } from "~/schemas/settings";
import { LOG_COLUMNS, NOTE_COLUMNS, STORE_ID_BASE } from "./company-log-schema";

/** Days one run archives, expires or drops; a run that stops short asks for another at once. */
const DAYS_PER_RUN = 31;
/** Rows one retention statement deletes or anonymises, so no transaction grows with the log. */
const ROWS_PER_STEP = 20_000;
/** Upkeep runs a little after each UTC midnight, when the day before has closed. */
const AFTER_MIDNIGHT_MS = 10 * 60_000;

export type Policy = { hotDays: number; retentionDays: number | null; action: RetentionAction };

/** The policy a company's settings give, inside the limits the settings form enforces (no settings: the defaults). */
export function policyWithin(row: Partial<Policy> | null): Policy {
  const hot = Number(row?.hotDays ?? HOT_DAYS.default);
  const keep = row?.retentionDays == null ? null : Number(row.retentionDays);
  return {
    hotDays: Math.min(HOT_DAYS.max, Math.max(HOT_DAYS.min, Number.isFinite(hot) ? Math.trunc(hot) : HOT_DAYS.default)),
    retentionDays: keep === null || !Number.isFinite(keep) ? null : Math.min(RETENTION_DAYS.max, Math.max(RETENTION_DAYS.min, Math.trunc(keep))),
    action: row?.action === "anonymise" ? "anonymise" : "delete",
  };
}
export type Upkeep = { archived: number; expired: number; dropped: number; more: boolean };

/** What upkeep needs of the store: its SQL, its state, its company and the archive bucket. */
export type UpkeepStore = {
  companyId: number;
  bucket: R2Bucket;
  sql<T extends Record<string, SqlStorageValue>>(query: string, ...params: unknown[]): SqlStorageCursor<T>;
  state(key: string): number | null;
  setState(key: string, value: number): void;
  transaction<T>(work: () => T): T;
};

const DAY_ROWS = "company_id = ? AND activity_timestamp >= ? AND activity_timestamp < ?";
const dayRange = (s: UpkeepStore, day: number) => [s.companyId, day * DAY_MS, (day + 1) * DAY_MS] as const;

/** The next instant upkeep is due after `now`. */
export const nextUpkeep = (now: number) => (dayOf(now) + 1) * DAY_MS + AFTER_MIDNIGHT_MS;

/** Whether a run has work before its daily time: a closed day with rows not yet archived (a late event). */
export function closedDayPending(s: UpkeepStore, now: number): boolean {
  return s.sql("SELECT 1 FROM archive_pending WHERE day < ? LIMIT 1", dayOf(now)).toArray().length > 0;
}

export async function upkeep(s: UpkeepStore, policy: Policy, now: number): Promise<Upkeep> {
  const today = dayOf(now);
  const result: Upkeep = { archived: 0, expired: 0, dropped: 0, more: false };
  const pending = days(s, "SELECT day FROM archive_pending WHERE day < ? ORDER BY day LIMIT ?", today);
  for (const day of pending.slice(0, DAYS_PER_RUN)) {
    if (await archiveDay(s, day)) result.archived++;
    else result.more = true;
  }
  result.more ||= pending.length > DAYS_PER_RUN;
  if (policy.retentionDays !== null) {
    const expiry = await expire(s, policy, today - policy.retentionDays);
    result.expired = expiry.days;
    result.more ||= expiry.more;
  }
  const old = days(s, "SELECT day FROM archive_days WHERE day < ? AND pruned = 0 AND day NOT IN (SELECT day FROM archive_pending) ORDER BY day LIMIT ?", today - policy.hotDays);
  for (const day of old.slice(0, DAYS_PER_RUN)) {
    s.transaction(() => dropDay(s, day));
    result.dropped++;
  }
  result.more ||= old.length > DAYS_PER_RUN;
  return result;
}

function days(s: UpkeepStore, query: string, before: number): number[] {
  return s
    .sql<{ day: number }>(query, before, DAYS_PER_RUN + 1)
    .toArray()
    .map((r) => r.day);
}

/**
 * What the store holds of a day, in numbers that any write to it changes: a copied or written row raises
 * its id range's highest id, a note the highest note id, and a delete lowers a count.
 */
function daySignature(s: UpkeepStore, day: number): string {
  const [range] = s
    .sql(
      `SELECT count(*) AS n, max(CASE WHEN id < ${STORE_ID_BASE} THEN id END) AS copied, max(CASE WHEN id >= ${STORE_ID_BASE} THEN id END) AS written,
         (SELECT count(*) || ':' || coalesce(max(id), 0) FROM activity_notes WHERE activity_id IN (SELECT id FROM activity_logs WHERE ${DAY_ROWS})) AS notes
       FROM activity_logs WHERE ${DAY_ROWS}`,
      ...dayRange(s, day),
      ...dayRange(s, day),
    )
    .toArray();
  return JSON.stringify(range);
}

/** The day's rows and notes as the store holds them. */
function heldDay(s: UpkeepStore, day: number): ArchivedDay {
  const rows = Array.from(s.sql(`SELECT ${LOG_COLUMNS.join(", ")} FROM activity_logs WHERE ${DAY_ROWS} ORDER BY id`, ...dayRange(s, day)).raw()) as Values[];
  const notes = Array.from(
    s.sql(`SELECT ${NOTE_COLUMNS.join(", ")} FROM activity_notes WHERE activity_id IN (SELECT id FROM activity_logs WHERE ${DAY_ROWS}) ORDER BY id`, ...dayRange(s, day)).raw(),
  ) as Values[];
  return { rows, notes };
}

/**
 * Writes the day's object: what the store holds of it, added to what the archive held when the store
 * had already dropped the day (a late event for an old day). Held rows of a dropped day leave the store
 * once they are in the object. Copies and writes go on meanwhile: when one touched the day while the
 * object was being written, the day stays pending and the next run writes it again.
 */
async function archiveDay(s: UpkeepStore, day: number): Promise<boolean> {
  const [known] = s.sql<{ pruned: number }>("SELECT pruned FROM archive_days WHERE day = ?", day).toArray();
  const signature = daySignature(s, day);
  const held = heldDay(s, day);
  const content = known?.pruned ? mergeDay((await readDay(s.bucket, s.companyId, day)) ?? { rows: [], notes: [] }, held) : held;
  await writeDay(s.bucket, s.companyId, day, content);
  return s.transaction(() => {
    if (daySignature(s, day) !== signature) return false;
    s.sql("DELETE FROM archive_pending WHERE day = ?", day);
    s.sql(
      `INSERT INTO archive_days (day, rows, pruned, anonymised) VALUES (?, ?, 0, 0)
         ON CONFLICT (day) DO UPDATE SET rows = excluded.rows, anonymised = 0`,
      day,
      content.rows.length,
    );
    if (known?.pruned) dropDay(s, day);
    bumpArchive(s);
    return true;
  });
}

/** Removes an archived day's rows and their notes from the store; reads of it go to the archive from now on. */
function dropDay(s: UpkeepStore, day: number) {
  s.sql(`DELETE FROM activity_notes WHERE activity_id IN (SELECT id FROM activity_logs WHERE ${DAY_ROWS})`, ...dayRange(s, day));
  s.sql(`DELETE FROM activity_logs WHERE ${DAY_ROWS}`, ...dayRange(s, day));
  s.sql("UPDATE archive_days SET pruned = 1 WHERE day = ?", day);
  s.setState("hot_from_day", Math.max(s.state("hot_from_day") ?? 0, day + 1));
}

/** Readers of the archive key what they built on this number: any change to an archived day changes it. */
function bumpArchive(s: UpkeepStore) {
  s.setState("archive_gen", (s.state("archive_gen") ?? 0) + 1);
}

/** Days before `cut` are past retention: deleted, or kept without the people in them. */
async function expire(s: UpkeepStore, policy: Policy, cut: number): Promise<{ days: number; more: boolean }> {
  const before = cut * DAY_MS;
  const stale = `SELECT id FROM activity_logs WHERE company_id = ? AND activity_timestamp < ?`;
  let more: boolean;
  if (policy.action === "delete") {
    more = s.transaction(() => {
      s.sql(`DELETE FROM activity_notes WHERE activity_id IN (${stale} LIMIT ?)`, s.companyId, before, ROWS_PER_STEP);
      s.sql(`DELETE FROM activity_logs WHERE id IN (${stale} LIMIT ?)`, s.companyId, before, ROWS_PER_STEP);
      return changes(s) === ROWS_PER_STEP;
    });
  } else {
    const named = `${stale} AND (created_by_user_id IS NOT NULL OR target_user_id IS NOT NULL OR gps_location IS NOT NULL OR summary <> '' OR details_json <> '{}')`;
    more = s.transaction(() => {
      s.sql(`DELETE FROM activity_notes WHERE activity_id IN (${stale})`, s.companyId, before);
      s.sql(
        `UPDATE activity_logs SET created_by_user_id = NULL, target_user_id = NULL, gps_location = NULL, summary = '', details_json = '{}' WHERE id IN (${named} LIMIT ?)`,
        s.companyId,
        before,
        ROWS_PER_STEP,
      );
      return changes(s) === ROWS_PER_STEP;
    });
  }
  const due = days(
    s,
    policy.action === "delete"
      ? "SELECT day FROM archive_days WHERE day < ? ORDER BY day LIMIT ?"
      : "SELECT day FROM archive_days WHERE day < ? AND anonymised = 0 ORDER BY day LIMIT ?",
    cut,
  );
  for (const day of due.slice(0, DAYS_PER_RUN)) {
    if (policy.action === "delete") {
      await deleteDay(s.bucket, s.companyId, day);
      s.transaction(() => {
        s.sql("DELETE FROM archive_days WHERE day = ?", day);
        bumpArchive(s);
      });
    } else {
      const archived = await readDay(s.bucket, s.companyId, day);
      if (archived) await writeDay(s.bucket, s.companyId, day, anonymiseDay(archived));
      s.transaction(() => {
        s.sql("UPDATE archive_days SET anonymised = 1 WHERE day = ?", day);
        bumpArchive(s);
      });
    }
  }
  return { days: Math.min(due.length, DAYS_PER_RUN), more: more || due.length > DAYS_PER_RUN };
}

function changes(s: UpkeepStore): number {
  return s.sql<{ n: number }>("SELECT changes() AS n").one().n;
}

/** Every archived day without one person (GDPR erasure); answers how many objects changed. */
export async function eraseFromArchive(s: UpkeepStore, userId: number): Promise<number> {
  const all = s
    .sql<{ day: number }>("SELECT day FROM archive_days ORDER BY day")
    .toArray()
    .map((r) => r.day);
  let changed = 0;
  for (const day of all) {
    const archived = await readDay(s.bucket, s.companyId, day);
    if (!archived) continue;
    const kept = eraseFromDay(archived, userId);
    if (kept.rows.length === archived.rows.length && kept.notes.length === archived.notes.length) continue;
    await writeDay(s.bucket, s.companyId, day, kept);
    s.transaction(() => {
      s.sql("UPDATE archive_days SET rows = ? WHERE day = ?", kept.rows.length, day);
      bumpArchive(s);
    });
    changed++;
  }
  return changed;
}
