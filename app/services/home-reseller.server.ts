/**
 * A reseller's home (decision 0056): its stock, its customer companies' health, its company requests and
 * its open invoices, read in the same D1 batch as its own dashboard numbers. Each part needs the module
 * of the screen it links to (VAR panel, billing portal), as those screens do.
 */
import { and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import { companyZone, type Auth } from "~/utils/auth-guards.server";
import { todayOf } from "~/utils/today";
import type { Batch } from "~/utils/batch-of.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { can, canUseVarPanel } from "~/utils/permissions";
import { inServiceSql, presenceSql } from "./device-status.server";

/** The children listed on home, those with most trouble first; the VAR panel lists them all. */
export const HOME_CHILDREN = 6;
/** The newest requests listed on home; /viewCompanyRequests lists them all. */
export const HOME_REQUESTS = 4;

export type ChildHealth = { id: number; name: string; code: string; devices: number; offline: number; lowBattery: number };
export type RequestState = { id: number; companyName: string; status: "pending" | "accepted" | "rejected"; createdAt: number };
export type ResellerHome = {
  stock?: number;
  children?: { total: number; rows: ChildHealth[] };
  requests?: { pending: number; rows: RequestState[] };
  invoices?: { issuedOpen: number; issuedOverdue: number; receivedOpen: number };
};

const { companies: c, devices: d, companyRequests: cr, invoices: inv } = schema;

/** Adds the reseller's statements to `batch`; the returned function reads them from its results. */
export function resellerHomeStatements(batch: Batch, db: Db, auth: Auth, now: number): (results: readonly unknown[]) => ResellerHome {
  const me = auth.company.id;
  const reads: ((results: readonly unknown[], out: ResellerHome) => void)[] = [];
  if (canUseVarPanel(auth.permissions, auth.company.type)) {
    const stock = batch.add(countWhere(db, d, and(eq(d.companyId, me), eq(d.status, "stock"), isNull(d.deletedAt))));
    const childWhere = and(eq(c.parentId, me), isNull(c.deletedAt));
    const childTotal = batch.add(countWhere(db, c, childWhere));
    const children = batch.add(childHealth(db, me, now));
    const requests = batch.add(
      db
        .select({ id: cr.id, companyName: cr.companyName, status: cr.status, createdAt: cr.createdAt })
        .from(cr)
        .where(eq(cr.companyId, me))
        .orderBy(sql`case ${cr.status} when 'pending' then 0 else 1 end`, desc(cr.createdAt), desc(cr.id))
        .limit(HOME_REQUESTS),
    );
    const pending = batch.add(countWhere(db, cr, and(eq(cr.companyId, me), eq(cr.status, "pending"))));
    reads.push((r, out) => {
      out.stock = stock(r)[0]?.n ?? 0;
      out.children = {
        total: childTotal(r)[0]?.n ?? 0,
        rows: children(r).map((x) => ({ ...x, devices: Number(x.devices), offline: Number(x.offline), lowBattery: Number(x.lowBattery) })),
      };
      out.requests = { pending: pending(r)[0]?.n ?? 0, rows: requests(r) };
    });
  }
  if (can(auth.permissions, "billing_portal")) {
    const today = todayOf(now, companyZone(auth));
    const open = sql<number>`coalesce(sum(case when ${inv.status} = 'open' then 1 else 0 end), 0)`;
    const overdue = sql<number>`coalesce(sum(case when ${inv.status} = 'open' and ${inv.dueDate} < ${today} then 1 else 0 end), 0)`;
    const issued = batch.add(db.select({ open, overdue }).from(inv).where(eq(inv.companyId, me)));
    const received = batch.add(db.select({ open }).from(inv).where(eq(inv.customerCompanyId, me)));
    reads.push((r, out) => {
      const i = issued(r)[0];
      out.invoices = { issuedOpen: Number(i?.open ?? 0), issuedOverdue: Number(i?.overdue ?? 0), receivedOpen: Number(received(r)[0]?.open ?? 0) };
    });
  }
  return (results) => {
    const out: ResellerHome = {};
    for (const read of reads) read(results, out);
    return out;
  };
}

/** Each live child company with its in-service boards that are offline or low on battery, the most troubled first. */
function childHealth(db: Db, parentId: number, now: number) {
  const { online } = presenceSql(now);
  const offline = sql<number>`coalesce(sum(case when ${online} = 0 then 1 else 0 end), 0)`;
  const lowBattery = sql<number>`coalesce(sum(case when ${d.lowBattery} = 1 then 1 else 0 end), 0)`;
  return db
    .select({ id: c.id, name: c.name, code: c.code, devices: count(d.id), offline, lowBattery })
    .from(c)
    .leftJoin(d, and(eq(d.companyId, c.id), isNull(d.deletedAt), inServiceSql))
    .where(and(eq(c.parentId, parentId), isNull(c.deletedAt)))
    .groupBy(c.id)
    .orderBy(desc(sql`${offline} + ${lowBattery}`), asc(c.name), asc(c.id))
    .limit(HOME_CHILDREN);
}
