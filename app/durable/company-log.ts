/**
 * One company's activity log in its own SQLite-backed Durable Object (docs/decisions/0047-activity-log-per-company.md),
 * one object per company (`idFromName("company:<id>")`). It follows D1: `catchUp` copies the company's rows and
 * notes after the last id it holds, the names those rows show, and the renames D1 recorded since it last looked.
 * Copies keep D1's ids, so a copy interrupted at any point is simply run again: nothing is written twice.
 * D1's table is an outbox (docs/decisions/0048-activity-outbox.md): `drain` copies, then deletes from D1 what
 * the store holds. Gateway and phone events are written here directly (`ingest`), once by event id. Every
 * row that arrives, copied or written, is queued for the company's alert engine, which the store runs.
 * Reads come in as the activity service's own SQL (`query`, `batch`), read-only.
 */
import { DurableObject } from "cloudflare:workers";
import { core } from "~/core.server";
import { ACTIVITY_COLUMNS, ALERT_PAGE, alertActivities, type Activity, type EngineResult } from "~/services/alert-engine.server";
import { wakeWebhooks } from "~/services/webhooks/delivery.server";
import { configureClock, nowMs } from "~/utils/clock.server";
import { dbFromEnv } from "~/utils/db.server";
import { configuredOrigin } from "~/utils/origin.server";
import { DAY_MS } from "./company-log-archive";
import { readOnly, type ProxyQuery, type ProxyRows } from "./log-read";
import { closedDayPending, eraseFromArchive, nextUpkeep, policyWithin, upkeep, type Policy, type Upkeep, type UpkeepStore } from "./company-log-upkeep";
import { COMPANY_LOG_SCHEMA, INGEST_LIMIT, LOG_COLUMNS, NAME_COLUMNS, NOTE_COLUMNS, STORE_ID_BASE, TYPE_COLUMNS, type IngestRow, type NameTable } from "./company-log-schema";

/**
 * The activity catalogue's version: raised by a migration that changes types the stores already copied
 * (1: 0034 gave every type its /activityDetails section templates), so each store copies it again once (decision 0063).
 */
export const TYPES_VERSION = 1;
/** Rows copied per D1 read: one statement's worth, and a bounded transaction in the store. */
export const CATCH_UP_BATCH = 500;
/** Rows one drain call copies (and then deletes from D1); the next call goes on. */
export const DRAIN_LIMIT = 5_000;
/** D1 binds at most 100 parameters per statement. */
const ID_CHUNK = 90;
const REF_TABLES = { created_by_user_id: "users", target_user_id: "users", target_device_id: "devices", target_device_group_id: "device_groups" } as const;

type Row = Record<string, SqlStorageValue>;
type Rename = { seq: number; kind: NameTable; ref_id: number };
/**
 * D1's outbox as one copy pass saw it: the company's oldest outbox row, and where the platform-wide alert
 * engine stopped (rows past it arrive at this store's engine).
 */
type Outbox = { first: number; alerted: number };
export type CatchUp = { rows: number; notes: number; names: number; done: boolean };
export type Drain = CatchUp & { deleted: number; alerts: EngineResult };

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");
const upsert = (table: string, columns: readonly string[]) => `INSERT OR REPLACE INTO ${table} (${columns.join(", ")}) VALUES (${placeholders(columns.length)})`;

export class CompanyLog extends DurableObject<Env> {
  /** The call holding the store: copies, drains, writes and erasures run one at a time (D1 awaits let others in). */
  private turn: Promise<unknown> = Promise.resolve();
  /** The alert engine's own turn: it reads arrivals while writes go on (it forgets only the ones it read). */
  private alerting: Promise<unknown> = Promise.resolve();
  /**
   * The archive's own turn (upkeep, and erasure's rewrite of archived days): its R2 reads and writes never
   * hold up copies and writes, which it checks for before recording a day (decision 0049).
   */
  private archiving: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    configureClock(env);
    ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec(COMPANY_LOG_SCHEMA);
      // A store from before the archive: every day it holds is still to be archived.
      if (this.state("archive_seeded") === null)
        ctx.storage.transactionSync(() => {
          this.sql("INSERT OR IGNORE INTO archive_pending (day) SELECT DISTINCT activity_timestamp / 86400000 FROM activity_logs");
          this.setState("archive_seeded", 1);
        });
      // A store from before the engine followed written rows by id queued each of them as an arrival.
      if (this.state("alerted_id") === null) this.setState("alerted_id", this.state("next_id") ?? STORE_ID_BASE);
      // A store whose copy of the catalogue is older than a migration that changed existing types copies it again.
      if (this.state("types_version") !== TYPES_VERSION && this.sql("SELECT 1 FROM activity_types LIMIT 1").toArray().length > 0) await this.copyCatalogue();
    });
  }

  private sql<T extends Row = Row>(query: string, ...params: unknown[]) {
    return this.ctx.storage.sql.exec<T>(query, ...(params as SqlStorageValue[]));
  }

  private state(key: string): number | null {
    const [row] = this.sql<{ value: number }>("SELECT value FROM store_state WHERE key = ?", key).toArray();
    return row ? row.value : null;
  }

  private setState(key: string, value: number) {
    this.sql("INSERT OR REPLACE INTO store_state (key, value) VALUES (?, ?)", key, value);
  }

  /** The store belongs to one company for good: a call for another is refused before anything is read. */
  private claim(companyId: number) {
    if (!Number.isSafeInteger(companyId) || companyId <= 0) throw new Error("A company log needs a company id");
    const owner = this.state("company_id");
    if (owner === null) this.setState("company_id", companyId);
    else if (owner !== companyId) throw new Error(`This log belongs to company ${owner}, not ${companyId}`);
  }

  /** Runs `work` after every call before it has finished, whatever became of them. */
  private serial<T>(companyId: number, work: () => Promise<T>): Promise<T> {
    this.claim(companyId);
    const mine = this.turn.catch(() => undefined).then(work);
    this.turn = mine;
    return mine;
  }

  /** Runs `work` on the archive after any archive work before it has finished. */
  private archiveInTurn<T>(companyId: number, work: () => Promise<T>): Promise<T> {
    this.claim(companyId);
    const mine = this.archiving.catch(() => undefined).then(work);
    this.archiving = mine;
    return mine;
  }

  /** Runs the alert engine over the arrivals after any run before it has finished. */
  private alertInTurn(): Promise<EngineResult> {
    const mine = this.alerting.catch(() => undefined).then(() => this.alertArrivals());
    this.alerting = mine;
    return mine;
  }

  /**
   * Copies what D1 holds past this store: at least `limit` rows if there are that many (every row by
   * default), their notes and names, and the renames since the last call.
   */
  async catchUp(companyId: number, limit = Infinity): Promise<CatchUp> {
    return this.serial(companyId, async () => (await this.copy(companyId, limit)).result);
  }

  /**
   * One step of emptying D1's outbox: copies up to `limit` rows (queueing them for the alert engine in the
   * same transaction), deletes from D1 this company's rows the store holds, then runs the alert engine.
   * Cut off anywhere, it is run again: the copy skips what it holds, the delete finds less to delete, and
   * the engine reads what it had not finished.
   */
  async drain(companyId: number, limit = DRAIN_LIMIT): Promise<Drain> {
    const step = await this.serial(companyId, async () => {
      const { result, outbox } = await this.copy(companyId, limit);
      const through = this.copiedThrough();
      let deleted = 0;
      if (outbox.first !== 0 && outbox.first <= through) {
        const db = this.env.DB;
        const [done] = await db.batch([db.prepare("DELETE FROM activity_logs WHERE company_id = ? AND id <= ?").bind(companyId, through)]);
        deleted = done.meta.changes;
      }
      return { ...result, deleted };
    });
    return { ...step, alerts: await this.alertInTurn() };
  }

  /**
   * Writes rows that are this store's alone (gateway and phone events), each once by event id: a row whose
   * event id the log holds is skipped. Answers how many were new; the alarm runs the alert engine over them.
   */
  async ingest(companyId: number, rows: IngestRow[]): Promise<number> {
    if (rows.length > INGEST_LIMIT) throw new Error(`At most ${INGEST_LIMIT} rows per call`);
    return this.serial(companyId, async () => {
      if (rows.some((r) => r.company_id !== companyId)) throw new Error(`This log takes rows of company ${companyId} only`);
      // Names and catalogue first (D1 reads); the rows then go in one transaction.
      await this.copyNames(rows);
      await this.copyTypes(rows);
      const inserted = this.ctx.storage.transactionSync(() => {
        let next = this.state("next_id") ?? STORE_ID_BASE;
        let n = 0;
        for (const r of rows) {
          this.sql(
            `INSERT OR IGNORE INTO activity_logs (${LOG_COLUMNS.join(", ")}) VALUES (${placeholders(LOG_COLUMNS.length)})`,
            next + 1,
            ...LOG_COLUMNS.slice(1).map((c) => r[c as keyof IngestRow]),
          );
          if (this.changes() === 0) continue;
          next++;
          n++;
        }
        this.setState("next_id", next);
        return n;
      });
      if (inserted > 0) await this.ctx.storage.setAlarm(Date.now());
      return inserted;
    });
  }

  /**
   * Erases every entry that names this person, as the one who acted or the one acted on, with the notes
   * on those entries and the notes they wrote, and the store's copy of their name; what D1's outbox still
   * held of theirs is copied first, so it goes too (the caller deletes D1's own copies). The tallies follow
   * the deletes. Answers the ids erased, so the caller can remove D1's notes on them.
   */
  async erasePerson(companyId: number, userId: number): Promise<number[]> {
    if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error("A person to erase needs a user id");
    return this.serial(companyId, async () => {
      await this.copy(companyId, Infinity);
      const erased = this.ctx.storage.transactionSync(() => {
        const names = "created_by_user_id = ?1 OR target_user_id = ?1";
        const ids = this.sql<{ id: number }>(`SELECT id FROM activity_logs WHERE ${names}`, userId)
          .toArray()
          .map((r) => r.id);
        this.sql(`DELETE FROM activity_notes WHERE user_id = ?1 OR activity_id IN (SELECT id FROM activity_logs WHERE ${names})`, userId);
        this.sql(`DELETE FROM activity_logs WHERE ${names}`, userId);
        this.sql("DELETE FROM users WHERE id = ?", userId);
        // Readers built on the log before (archive views) are built again.
        this.setState("archive_gen", (this.state("archive_gen") ?? 0) + 1);
        return ids;
      });
      return erased;
    }).then(async (erased) => {
      await this.archiveInTurn(companyId, () => eraseFromArchive(this.upkeepStore(companyId), userId));
      return erased;
    });
  }

  /**
   * The alarm: the alert engine over what arrived (an ingest sets it), then the upkeep when it is due or a
   * closed day has rows to archive. A throw retries it later, with the alarm's own backoff.
   */
  async alarm() {
    await this.alertInTurn();
    const companyId = this.state("company_id");
    if (companyId === null) return;
    const now = nowMs();
    const more = now >= (this.state("upkeep_due") ?? 0) || closedDayPending(this.upkeepStore(companyId), now) ? (await this.upkeep(companyId, now)).more : false;
    // Alarms run on the real clock; the upkeep's day is the server's (which tests may shift).
    const due = more ? now : this.state("upkeep_due")!;
    await this.ctx.storage.setAlarm(Date.now() + Math.max(0, due - now));
  }

  /**
   * Archives the closed days the archive lacks, applies the company's retention policy and drops archived
   * days past its hot window, a bounded amount per call (`more` says there is more): the alarm's daily work,
   * run now. `now` is the instant it runs as.
   */
  async upkeep(companyId: number, now = nowMs()): Promise<Upkeep> {
    return this.archiveInTurn(companyId, async () => {
      const result = await upkeep(this.upkeepStore(companyId), await this.policy(companyId), now);
      // A run that stopped short is due again at once (the alarm goes on with it), else after next midnight.
      this.setState("upkeep_due", result.more ? now : nextUpkeep(now));
      return result;
    });
  }

  /** The company's hot window and retention policy (company settings), within their limits. */
  private async policy(companyId: number): Promise<Policy> {
    const row = await this.env.DB.prepare(
      "SELECT activity_hot_days AS hotDays, activity_retention_days AS retentionDays, activity_retention_action AS action FROM company_settings WHERE company_id = ?",
    )
      .bind(companyId)
      .first<Policy>();
    return policyWithin(row);
  }

  private upkeepStore(companyId: number): UpkeepStore {
    return {
      companyId,
      bucket: this.env.ACTIVITY_ARCHIVE,
      sql: (query, ...params) => this.sql(query, ...params),
      state: (key) => this.state(key),
      setState: (key, value) => this.setState(key, value),
      transaction: (work) => this.ctx.storage.transactionSync(work),
    };
  }

  /**
   * Where the store's rows begin: every row before `hotFrom` (UTC midnight; null while nothing has left the
   * store) is read from the archive. `generation` changes whenever an archived day does.
   */
  archiveState(companyId: number): { hotFrom: number | null; generation: number } {
    this.claim(companyId);
    const day = this.state("hot_from_day");
    return { hotFrom: day === null ? null : day * DAY_MS, generation: this.state("archive_gen") ?? 0 };
  }

  /** The archived days in [fromDay, toDay) the store no longer holds, oldest first. */
  archivedDays(companyId: number, fromDay: number, toDay: number): number[] {
    this.claim(companyId);
    return this.sql<{ day: number }>("SELECT day FROM archive_days WHERE pruned = 1 AND day >= ? AND day < ? ORDER BY day", fromDay, toDay)
      .toArray()
      .map((r) => r.day);
  }

  /** The alert engine over what has arrived and not been read yet: the alarm's work, run now. */
  async runAlerts(companyId: number): Promise<EngineResult> {
    this.claim(companyId);
    return this.alertInTurn();
  }

  /**
   * Reads what the engine has not read, a page at a time: rows copied from D1 (their arrivals, in copy
   * order), then rows written here (by id, in write order). Each is forgotten only after its matches and
   * mail are in D1.
   */
  private async alertArrivals(): Promise<EngineResult> {
    const total: EngineResult = { read: 0, matched: 0, mails: 0, webhookEvents: 0 };
    const columns = ACTIVITY_COLUMNS.map((c) => `l.${c}`).join(", ");
    for (;;) {
      const last = this.sql<{ seq: number }>("SELECT coalesce(max(seq), 0) AS seq FROM (SELECT seq FROM alert_arrivals ORDER BY seq LIMIT ?)", ALERT_PAGE).one().seq;
      if (last === 0) break;
      // An arrival whose row is gone (erased) has nothing to match.
      await this.alertPage(
        this.sql<Activity>(`SELECT ${columns} FROM alert_arrivals a JOIN activity_logs l ON l.id = a.activity_id WHERE a.seq <= ? ORDER BY a.seq`, last).toArray(),
        total,
      );
      this.sql("DELETE FROM alert_arrivals WHERE seq <= ?", last);
    }
    for (;;) {
      const after = this.state("alerted_id") ?? STORE_ID_BASE;
      const page = this.sql<Activity>(`SELECT ${columns} FROM activity_logs l WHERE l.id > ? ORDER BY l.id LIMIT ?`, after, ALERT_PAGE).toArray();
      if (page.length === 0) return total;
      await this.alertPage(page, total);
      this.setState("alerted_id", page[page.length - 1].id);
    }
  }

  private async alertPage(page: Activity[], total: EngineResult) {
    if (page.length === 0) return;
    const r = await alertActivities(dbFromEnv(this.env), core, page, { now: nowMs(), origin: configuredOrigin(this.env) ?? "" });
    total.read += r.read;
    total.matched += r.matched;
    total.mails += r.mails;
    total.webhookEvents += r.webhookEvents;
    if (r.webhookEvents > 0) await wakeWebhooks(this.env);
  }

  private changes(): number {
    return this.sql<{ n: number }>("SELECT changes() AS n").one().n;
  }

  /** The highest D1 id this store has copied (kept apart from its rows, which retention may delete). */
  private copiedThrough(): number {
    return this.state("row_id") ?? this.sql<{ id: number }>("SELECT coalesce(max(id), 0) AS id FROM activity_logs WHERE id < ?", STORE_ID_BASE).one().id;
  }

  private async copy(companyId: number, limit: number): Promise<{ result: CatchUp; outbox: Outbox }> {
    const db = this.env.DB;
    const result: CatchUp = { rows: 0, notes: 0, names: 0, done: false };
    for (;;) {
      // One D1 round trip asks for all of it (one snapshot); with nothing new, that is the whole cost of a read's catch-up.
      const lastRow = this.copiedThrough();
      const lastNote = this.state("note_id") ?? this.sql<{ id: number }>("SELECT coalesce(max(id), 0) AS id FROM activity_notes").one().id;
      const [rows, notes, renames, [outbox]] = (
        await db.batch<Row>([
          db.prepare(`SELECT ${LOG_COLUMNS.join(", ")} FROM activity_logs WHERE company_id = ? AND id > ? ORDER BY id LIMIT ?`).bind(companyId, lastRow, CATCH_UP_BATCH),
          db.prepare(`SELECT ${NOTE_COLUMNS.join(", ")} FROM activity_notes WHERE company_id = ? AND id > ? ORDER BY id LIMIT ?`).bind(companyId, lastNote, CATCH_UP_BATCH),
          db
            .prepare("SELECT seq, kind, ref_id FROM log_name_changes WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT ?")
            .bind(companyId, this.state("name_seq") ?? 0, CATCH_UP_BATCH),
          db
            .prepare(
              `SELECT coalesce((SELECT min(id) FROM activity_logs WHERE company_id = ?1), 0) AS first,
                 coalesce((SELECT last_activity_id FROM alert_cursor WHERE id = 1), 0) AS alerted`,
            )
            .bind(companyId),
        ])
      ).map((r) => r.results);
      // Renames first: the names of refs new in this pass are read after the snapshot, so they are at least as new.
      result.names += await this.followRenames(renames as Rename[]);
      result.names += await this.copyNames([...rows, ...notes.map((n) => ({ created_by_user_id: n.user_id }))]);
      await this.copyTypes(rows);
      this.ctx.storage.transactionSync(() => {
        const { alerted } = outbox as unknown as Outbox;
        for (const r of rows) {
          this.sql(`INSERT OR IGNORE INTO activity_logs (${LOG_COLUMNS.join(", ")}) VALUES (${placeholders(LOG_COLUMNS.length)})`, ...LOG_COLUMNS.map((c) => r[c]));
          // A row the platform-wide engine had not read arrives at this store's engine (once: a copy skipped as held wrote nothing).
          if ((r.id as number) > alerted && this.changes() > 0) this.sql("INSERT INTO alert_arrivals (activity_id) VALUES (?)", r.id);
        }
        for (const n of notes)
          this.sql(`INSERT OR IGNORE INTO activity_notes (${NOTE_COLUMNS.join(", ")}) VALUES (${placeholders(NOTE_COLUMNS.length)})`, ...NOTE_COLUMNS.map((c) => n[c]));
        // A row skipped as a re-sent event (same event id, another D1 id) still counts as copied: the drain deletes it.
        if (rows.length > 0) this.setState("row_id", rows[rows.length - 1].id as number);
        if (notes.length > 0) this.setState("note_id", notes[notes.length - 1].id as number);
      });
      // A store fed by the outbox alone (drains and reads copy) has no ingest to set its alarm, which runs the upkeep.
      if (rows.length > 0 && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
      result.rows += rows.length;
      result.notes += notes.length;
      const more = [rows, notes, renames].some((list) => list.length === CATCH_UP_BATCH);
      if (!more || result.rows >= limit) {
        result.done = !more;
        return { result, outbox: outbox as unknown as Outbox };
      }
    }
  }

  /** The activity catalogue again when a row names an activity the store has not seen (a later migration added it). */
  private async copyTypes(rows: Row[]) {
    const ids = new Set(rows.map((r) => r.activity_type_id));
    if ([...ids].every((id) => this.sql("SELECT 1 FROM activity_types WHERE id = ?", id).toArray().length > 0)) return;
    await this.copyCatalogue();
  }

  private async copyCatalogue() {
    const { results } = await this.env.DB.prepare(`SELECT ${TYPE_COLUMNS.join(", ")} FROM activity_types`).all<Row>();
    this.ctx.storage.transactionSync(() => {
      for (const t of results) this.sql(upsert("activity_types", TYPE_COLUMNS), ...TYPE_COLUMNS.map((c) => t[c]));
      this.setState("types_version", TYPES_VERSION);
    });
  }

  /** The names of the people, devices and groups these rows point at that the store does not have yet. */
  private async copyNames(rows: Row[]): Promise<number> {
    const wanted: Record<NameTable, Set<number>> = { users: new Set(), devices: new Set(), device_groups: new Set() };
    for (const r of rows)
      for (const [column, table] of Object.entries(REF_TABLES)) {
        const id = r[column];
        if (typeof id === "number") wanted[table].add(id);
      }
    let copied = 0;
    for (const table of Object.keys(wanted) as NameTable[]) {
      const missing = [...wanted[table]].filter((id) => this.sql(`SELECT 1 FROM ${table} WHERE id = ?`, id).toArray().length === 0);
      copied += await this.copyNamesById(table, missing);
    }
    return copied;
  }

  private async copyNamesById(table: NameTable, ids: number[]): Promise<number> {
    const columns = NAME_COLUMNS[table];
    let copied = 0;
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const part = ids.slice(i, i + ID_CHUNK);
      const { results } = await this.env.DB.prepare(`SELECT ${columns.join(", ")} FROM ${table} WHERE id IN (${placeholders(part.length)})`)
        .bind(...part)
        .all<Row>();
      this.ctx.storage.transactionSync(() => {
        for (const r of results) this.sql(upsert(table, columns), ...columns.map((c) => r[c]));
      });
      copied += results.length;
    }
    return copied;
  }

  /** Today's names for renames D1 recorded in this company; a rename of someone the log never shows is nothing to it. */
  private async followRenames(renames: Rename[]): Promise<number> {
    if (renames.length === 0) return 0;
    let copied = 0;
    for (const table of Object.keys(NAME_COLUMNS) as NameTable[]) {
      const known = renames.filter((c) => c.kind === table && this.sql(`SELECT 1 FROM ${table} WHERE id = ?`, c.ref_id).toArray().length > 0);
      copied += await this.copyNamesById(table, [...new Set(known.map((c) => c.ref_id))]);
    }
    this.setState("name_seq", renames[renames.length - 1].seq);
    return copied;
  }

  /**
   * One read statement of the activity service (drizzle's sqlite-proxy protocol), rows as arrays, after
   * catching up with D1: every statement sees what D1 held when it was asked (a streamed report's later
   * chunks include rows written while it streams, as they did from D1).
   */
  async query(companyId: number, q: ProxyQuery): Promise<ProxyRows> {
    await this.catchUp(companyId);
    return this.read(q);
  }

  /** Statements of one drizzle batch, read from one state of the store. */
  async batch(companyId: number, queries: ProxyQuery[]): Promise<ProxyRows[]> {
    await this.catchUp(companyId);
    return queries.map((q) => this.read(q));
  }

  private read(q: ProxyQuery): ProxyRows {
    return readOnly(this.ctx.storage.sql, q);
  }

  /** What the store holds and its size on disk, for the operators' backfill and `bench:activity`. */
  stats(): { rows: number; notes: number; bytes: number; lastId: number; copiedThrough: number } {
    const { rows, lastId } = this.sql<{ rows: number; lastId: number }>("SELECT count(*) AS rows, coalesce(max(id), 0) AS lastId FROM activity_logs").one();
    const { notes } = this.sql<{ notes: number }>("SELECT count(*) AS notes FROM activity_notes").one();
    return { rows, notes, lastId, copiedThrough: this.copiedThrough(), bytes: this.ctx.storage.sql.databaseSize };
  }
}
