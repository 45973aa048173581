/**
 * The root company's home (decision 0056): pending company requests, companies, boards registered and in
 * stock, firmware releases, and the platform's recent activity (the root company's own log), in one D1
 * batch and one log statement. Only for the root company's platform role (the company module).
 */
import { and, asc, count, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Auth } from "~/utils/auth-guards.server";
import { batchOf } from "~/utils/batch-of.server";
import type { LogDb } from "~/utils/company-log.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { can, canUseVarPanel } from "~/utils/permissions";

export const HOME_PENDING = 5;
export const HOME_ACTIVITY = 6;

export type PlatformHome = {
  requests: { pending: number; oldest: { id: number; companyName: string; reseller: string; createdAt: number }[] };
  companies: { resellers: number; customers: number };
  boards: { registered: number; inStock: number };
  firmware: { releases: number; active: number; latest: { version: string; boardType: string; createdAt: number } | null };
  activity: { id: number; name: string; summary: string; at: number }[];
  /** The stock link needs the VAR panel (the stock screen's module). */
  stockLink: boolean;
};

const { companies: c, companyRequests: cr, devices: d, firmwareReleases: f, deviceTypes: dt } = schema;

export const isPlatformHome = (auth: Auth) => auth.company.type === "root" && can(auth.permissions, "company");

export async function platformHome(db: Db, log: LogDb, auth: Auth): Promise<PlatformHome> {
  const b = batchOf(db);
  const pending = b.add(countWhere(db, cr, eq(cr.status, "pending")));
  const oldest = b.add(
    db
      .select({ id: cr.id, companyName: cr.companyName, reseller: sql<string>`coalesce(${c.name}, '')`, createdAt: cr.createdAt })
      .from(cr)
      .leftJoin(c, eq(c.id, cr.companyId))
      .where(eq(cr.status, "pending"))
      .orderBy(asc(cr.createdAt), asc(cr.id))
      .limit(HOME_PENDING),
  );
  const companies = b.add(
    db
      .select({
        resellers: sql<number>`coalesce(sum(case when ${c.type} = 'var' then 1 else 0 end), 0)`,
        customers: sql<number>`coalesce(sum(case when ${c.type} in ('ec', 'oem') then 1 else 0 end), 0)`,
      })
      .from(c)
      .where(isNull(c.deletedAt)),
  );
  const boards = b.add(
    db
      .select({ registered: count(), inStock: sql<number>`coalesce(sum(case when ${d.status} = 'stock' and ${d.companyId} = ${auth.company.id} then 1 else 0 end), 0)` })
      .from(d)
      .where(and(isNull(d.deletedAt), ne(d.status, "retired"))),
  );
  const releases = b.add(
    db
      .select({ n: count(), active: sql<number>`coalesce(sum(${f.isActive}), 0)` })
      .from(f)
      .where(isNull(f.deletedAt)),
  );
  const latest = b.add(
    db
      .select({ version: f.version, boardType: sql<string>`coalesce(${dt.deviceType}, '')`, createdAt: f.createdAt })
      .from(f)
      .leftJoin(dt, eq(dt.id, f.deviceTypeId))
      .where(isNull(f.deletedAt))
      .orderBy(desc(f.createdAt), desc(f.id))
      .limit(1),
  );
  const l = schema.activityLogs;
  const t = schema.activityTypes;
  const [r, activity] = await Promise.all([
    b.run(),
    log
      .select({ id: l.id, name: t.name, summary: l.summary, at: l.activityTimestamp })
      .from(l)
      .innerJoin(t, eq(t.id, l.activityTypeId))
      .where(eq(l.companyId, auth.company.id))
      .orderBy(desc(l.activityTimestamp), desc(l.id))
      .limit(HOME_ACTIVITY),
  ]);
  const co = companies(r)[0];
  const bo = boards(r)[0];
  const re = releases(r)[0];
  return {
    requests: { pending: pending(r)[0]?.n ?? 0, oldest: oldest(r) },
    companies: { resellers: Number(co?.resellers ?? 0), customers: Number(co?.customers ?? 0) },
    boards: { registered: Number(bo?.registered ?? 0), inStock: Number(bo?.inStock ?? 0) },
    firmware: { releases: Number(re?.n ?? 0), active: Number(re?.active ?? 0), latest: latest(r)[0] ?? null },
    activity,
    stockLink: canUseVarPanel(auth.permissions, auth.company.type),
  };
}
