/**
 * Reading a company's activity log (decisions 0047 and 0049): a drizzle handle whose statements run in
 * the company's Durable Object, so the activity service's queries are the same ones D1 ran. Each
 * statement first has the store copy what D1's outbox holds past it. A read whose dates reach before the
 * store's hot window goes to an archive view instead: the same tables, built from the archive.
 */
import { drizzle } from "drizzle-orm/sqlite-proxy";
import type { ArchiveView } from "~/durable/archive-view";
import { dayOf, DAY_MS } from "~/durable/company-log-archive";
import { daySpan, viewName, type ViewSpec } from "~/durable/archive-view-spec";
import type { CompanyLog } from "~/durable/company-log";
import type { ProxyQuery, ProxyRows } from "~/durable/log-read";
import { schema, type Db } from "./db.server";

export type CompanyLogEnv = { COMPANY_LOG: DurableObjectNamespace<CompanyLog>; ARCHIVE_VIEW: DurableObjectNamespace<ArchiveView>; DB: D1Database };

/** What the activity service reads with: the builder's selects and batches, nothing that writes. */
export type LogDb = Pick<Db, "select" | "batch">;

/** A span of activity time, `from` inclusive and `to` exclusive (epoch ms). */
export type Span = { from: number; to: number };
/**
 * Part of the log, for reads that walk it in time order: a handle and the times its part covers. The
 * company's store also says whether it still holds what the part covers (`unchanged`): the upkeep may move
 * days from the store to the archive while a long read walks it.
 */
export type LogPart = { db: LogDb; span?: Partial<Span>; unchanged?: () => Promise<boolean> };

/** Archived days per view of a streamed report: each view stays small and the first is quick to build. */
const REPORT_VIEW_DAYS = 7;

export function companyLogStub(env: Pick<CompanyLogEnv, "COMPANY_LOG">, companyId: number) {
  return env.COMPANY_LOG.get(env.COMPANY_LOG.idFromName(`company:${companyId}`));
}

function proxyDb(one: (q: ProxyQuery) => Promise<ProxyRows>, many: (qs: ProxyQuery[]) => Promise<ProxyRows[]>): LogDb {
  const proxy = drizzle(
    // `get` of no row is undefined, which drizzle reads as none although its type says an array.
    async (sql, params, method) => ({ rows: (await one({ sql, params, method })) as ProxyRows[] }),
    async (queries) => (await many(queries)).map((r) => ({ rows: r as ProxyRows[] })),
    { schema },
  );
  // Both are drizzle's async SQLite builders over the same schema; only selects and batches of them run here.
  return proxy as unknown as LogDb;
}

/** The company's log, brought up to date with D1 before each read: an entry written a moment ago is on the next page load. */
export function companyLogDb(env: Pick<CompanyLogEnv, "COMPANY_LOG">, companyId: number): LogDb {
  const stub = companyLogStub(env, companyId);
  return proxyDb(
    (q) => stub.query(companyId, q),
    (qs) => stub.batch(companyId, qs),
  );
}

function archiveViewDb(env: CompanyLogEnv, spec: ViewSpec): LogDb {
  const stub = env.ARCHIVE_VIEW.get(env.ARCHIVE_VIEW.idFromName(viewName(spec)));
  return proxyDb(
    (q) => stub.query(spec, q),
    (qs) => stub.batch(spec, qs),
  );
}

/** Where the company's store begins: rows before `hotFrom` (null: none yet) are read from the archive. */
export async function hotWindow(env: CompanyLogEnv, companyId: number): Promise<{ hotFrom: number | null; generation: number }> {
  return companyLogStub(env, companyId).archiveState(companyId);
}

/**
 * The log a read of `span` goes to: the store when the span starts inside its hot window (or there is no
 * span), else a view of the archive over the span's whole days (the store's rows included when the span
 * reaches them; such a view is rebuilt each minute, so new rows appear within one).
 */
export async function activityLogFor(env: CompanyLogEnv, companyId: number, span: Span | null, now: number): Promise<{ db: LogDb; hotFrom: number | null }> {
  const { hotFrom, generation } = await hotWindow(env, companyId);
  if (!span || hotFrom === null || span.from >= hotFrom) return { db: companyLogDb(env, companyId), hotFrom };
  const days = daySpan(span.from, span.to);
  const minute = days.to > hotFrom ? Math.floor(now / 60_000) : 0;
  return { db: archiveViewDb(env, { companyId, ...days, hotFrom, generation, minute }), hotFrom };
}

/**
 * The parts a report streamed in time order reads, newest first or oldest first: the store from its hot
 * window on, and the archived days before it in views of REPORT_VIEW_DAYS days. Within `span` when given.
 * The store's part is unchanged while the store begins where it did: once it does not, rows of it may be
 * in the archive instead, and the reader asks again for the parts of what it has not sent.
 */
export async function reportParts(env: CompanyLogEnv, companyId: number, span: Span | null, oldestFirst: boolean): Promise<LogPart[]> {
  const { hotFrom, generation } = await hotWindow(env, companyId);
  const hot: LogPart = {
    db: companyLogDb(env, companyId),
    span: hotFrom === null ? undefined : { from: hotFrom },
    unchanged: async () => (await hotWindow(env, companyId)).hotFrom === hotFrom,
  };
  if (hotFrom === null || (span && span.from >= hotFrom)) return [hot];
  const fromDay = span ? dayOf(span.from) : 0;
  const toDay = Math.min(dayOf(hotFrom), span ? dayOf(span.to - 1) + 1 : Infinity);
  const archived = await companyLogStub(env, companyId).archivedDays(companyId, fromDay, toDay);
  const cold: LogPart[] = [];
  for (let i = 0; i < archived.length;) {
    const first = archived[i];
    while (i < archived.length && archived[i] < first + REPORT_VIEW_DAYS) i++;
    const from = first * DAY_MS;
    const to = (archived[i - 1] + 1) * DAY_MS;
    cold.push({ db: archiveViewDb(env, { companyId, from, to, hotFrom, generation, minute: 0 }), span: { from, to } });
  }
  const parts = span && span.to <= hotFrom ? cold : [...cold, hot];
  return oldestFirst ? parts : parts.reverse();
}
