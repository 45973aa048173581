/**
 * A company's log over a span of whole UTC days, archive included (docs/decisions/0049-activity-hot-window-archive.md):
 * the reads whose dates reach before the company store's rows run here, on the same tables, so the
 * activity service's queries (filters, sorts, pages, tallies, CSV) are the ones the store runs.
 * One object per span and state of the archive (`viewName`, archive-view-spec.ts), built on first read
 * from the archived days in R2 and, when the span reaches the hot window, the store's rows; it deletes
 * itself when unused.
 */
import { DurableObject } from "cloudflare:workers";
import { dayOf, readDay, type Values } from "./company-log-archive";
import { COMPANY_LOG_SCHEMA, LOG_COLUMNS, NAME_COLUMNS, NOTE_COLUMNS, TYPE_COLUMNS, type NameTable } from "./company-log-schema";
import type { ViewSpec } from "./archive-view-spec";
import { readOnly, type ProxyQuery, type ProxyRows } from "./log-read";

/** A view unread this long deletes its copy. */
const IDLE_MS = 10 * 60_000;
/** Store rows copied per read. */
const COPY_PAGE = 2_000;
const REFS = { created_by_user_id: "users", target_user_id: "users", target_device_id: "devices", target_device_group_id: "device_groups" } as const;

const insert = (table: string, columns: readonly string[], conflict: "IGNORE" | "REPLACE" = "REPLACE") =>
  `INSERT OR ${conflict} INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;

export class ArchiveView extends DurableObject<Env> {
  private building: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec(COMPANY_LOG_SCHEMA);
    });
  }

  async query(spec: ViewSpec, q: ProxyQuery): Promise<ProxyRows> {
    await this.ready(spec);
    return readOnly(this.ctx.storage.sql, q);
  }

  async batch(spec: ViewSpec, queries: ProxyQuery[]): Promise<ProxyRows[]> {
    await this.ready(spec);
    return queries.map((q) => readOnly(this.ctx.storage.sql, q));
  }

  /** Unused for IDLE_MS: the copy goes (a later read builds it again). */
  async alarm() {
    this.building = null;
    await this.ctx.storage.deleteAll();
  }

  private async ready(spec: ViewSpec) {
    // One build at a time; a build that failed is tried again by the next read.
    this.building ??= this.build(spec).catch((e) => {
      this.building = null;
      throw e;
    });
    await this.building;
    await this.ctx.storage.setAlarm(Date.now() + IDLE_MS);
  }

  private async build(spec: ViewSpec) {
    const sql = this.ctx.storage.sql;
    if (sql.exec("SELECT 1 FROM store_state WHERE key = 'built'").toArray().length > 0) return;
    // A copy left half-made by an earlier instance starts over.
    for (const table of ["activity_logs", "activity_notes", "activity_counts", "activity_ref_counts", "archive_pending", "users", "devices", "device_groups"])
      sql.exec(`DELETE FROM ${table}`);
    const store = this.env.COMPANY_LOG.get(this.env.COMPANY_LOG.idFromName(`company:${spec.companyId}`));
    const { results: types } = await this.env.DB.prepare(`SELECT ${TYPE_COLUMNS.join(", ")} FROM activity_types`).all<Record<string, SqlStorageValue>>();
    this.ctx.storage.transactionSync(() => {
      for (const t of types) sql.exec(insert("activity_types", TYPE_COLUMNS), ...TYPE_COLUMNS.map((c) => t[c]));
    });
    const refs: Record<NameTable, Set<number>> = { users: new Set(), devices: new Set(), device_groups: new Set() };
    const keep = (rows: Values[], notes: Values[] = []) => {
      this.ctx.storage.transactionSync(() => {
        // OR IGNORE, not OR REPLACE: a replaced row would count twice in the tallies (its delete fires no trigger).
        for (const r of rows) sql.exec(insert("activity_logs", LOG_COLUMNS, "IGNORE"), ...r);
        for (const n of notes) sql.exec(insert("activity_notes", NOTE_COLUMNS, "IGNORE"), ...n);
      });
      for (const r of rows)
        for (const [column, table] of Object.entries(REFS)) {
          const id = r[LOG_COLUMNS.indexOf(column as keyof typeof REFS)];
          if (typeof id === "number") refs[table].add(id);
        }
    };
    // The store's rows of the span first: its hot window, and any row of an archived day it still holds (a
    // late event the upkeep has not archived yet).
    for (let after = 0; ;) {
      const page = (await store.query(spec.companyId, {
        sql: `SELECT ${LOG_COLUMNS.join(", ")} FROM activity_logs WHERE activity_timestamp >= ? AND activity_timestamp < ? AND id > ? ORDER BY id LIMIT ?`,
        params: [spec.from, spec.to, after, COPY_PAGE],
        method: "values",
      })) as Values[];
      keep(page);
      if (page.length < COPY_PAGE) break;
      after = page[page.length - 1][0] as number;
    }
    // Then the archived days; a row the store holds too was kept from the store.
    const coldTo = Math.min(spec.to, spec.hotFrom);
    if (spec.from < coldTo)
      for (const day of await store.archivedDays(spec.companyId, dayOf(spec.from), dayOf(coldTo))) {
        const archived = await readDay(this.env.ACTIVITY_ARCHIVE, spec.companyId, day);
        if (archived) keep(archived.rows, archived.notes);
      }
    // The names as the store shows them today, so a row reads the same here as it did there.
    for (const table of Object.keys(refs) as NameTable[]) {
      if (refs[table].size === 0) continue;
      const columns = NAME_COLUMNS[table];
      const names = (await store.query(spec.companyId, {
        sql: `SELECT ${columns.join(", ")} FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`,
        params: [JSON.stringify([...refs[table]])],
        method: "values",
      })) as Values[];
      this.ctx.storage.transactionSync(() => {
        for (const n of names) sql.exec(insert(table, columns), ...n);
      });
    }
    sql.exec("INSERT INTO store_state (key, value) VALUES ('built', 1)");
  }
}
