/**
 * Reseller stock and transfers (spec part 2 §2 Reseller screens, §3 stock list and transfer payload,
 * §4 Transfer, §5 Transfer): the caller's child companies, its stock, and moving stock boards to a
 * child company, as stock or as unconfigured devices with a shipping date and a subscription term.
 *
 * Needs the `var_panel` module and a var or root company. A reseller only ever transfers from its
 * own stock to one of its own (direct) child companies; anything else is a 404.
 */
import { and, asc, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { LIFECYCLE_MSG, transferSchema } from "~/schemas/device-lifecycle";
import { activityInsertWhen } from "~/utils/activity-insert.server";
import { assertCan, companyZone, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { insertWhen } from "~/utils/insert-when.server";
import { parseInput } from "~/utils/parse-input.server";
import { todayOf } from "~/utils/today";
import { canUseVarPanel } from "~/utils/permissions";
import { companyIdOf } from "./companies.server";

const { companies: c, devices: d } = schema;
type Page = { offset: number; limit: number };

/** VAR Panel: the module, and a var or root company (spec part 2 §6). */
export function assertVarPanel(auth: Auth, action: "view" | "modify" = "view") {
  if (!canUseVarPanel(auth.permissions, auth.company.type)) forbidden();
  assertCan(auth, "var_panel", action);
}

const boardType = sql<string>`coalesce((select device_type from device_types where device_types.id = devices.device_type_id), '')`;
const deviceCount = sql<number>`(select count(*) from devices where devices.company_id = companies.id and devices.deleted_at is null)`;
const userCount = sql<number>`(select count(*) from users where users.company_id = companies.id and users.deleted_at is null)`;

export const CHILD_SORTS = { name: c.name, code: c.code, email: c.pocEmail, devices: deviceCount, users: userCount, active: c.isDeactive } as const;

export type ChildCompany = {
  id: number;
  name: string;
  code: string;
  type: "ec" | "var" | "oem" | "root";
  pocFirstName: string;
  pocLastName: string;
  pocEmail: string;
  pocCountryCode: string;
  pocPhoneNumber: string;
  isDeactive: boolean;
  totalDevices: number;
  totalUsers: number;
};

/** GET company/getChildCompanyList: the caller's direct child companies (live), with device and user counts. */
export async function listChildCompanies(db: Db, auth: Auth, opts: { sort?: { key: string; desc: boolean }; page?: Page } = {}): Promise<{ rows: ChildCompany[]; total: number }> {
  assertVarPanel(auth);
  const where = and(eq(c.parentId, auth.company.id), isNull(c.deletedAt));
  const key = opts.sort && opts.sort.key in CHILD_SORTS ? (opts.sort.key as keyof typeof CHILD_SORTS) : "name";
  const base = db
    .select({
      id: c.id,
      name: c.name,
      code: c.code,
      type: c.type,
      pocFirstName: c.pocFirstName,
      pocLastName: c.pocLastName,
      pocEmail: c.pocEmail,
      pocCountryCode: c.pocCountryCode,
      pocPhoneNumber: c.pocPhoneNumber,
      isDeactive: c.isDeactive,
      totalDevices: deviceCount,
      totalUsers: userCount,
    })
    .from(c)
    .where(where)
    .orderBy((opts.sort?.desc ? desc : asc)(CHILD_SORTS[key]), asc(c.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, c, where)]);
  return { rows: rows.map((r) => ({ ...r, totalDevices: Number(r.totalDevices), totalUsers: Number(r.totalUsers) })), total: Number(totals[0]?.n ?? 0) };
}

/** A direct child of the caller's company, or 404 (another reseller's customer is not there). */
export async function findChildCompany(db: Db, auth: Auth, id: number) {
  if (!Number.isInteger(id) || id <= 0) notFound(LIFECYCLE_MSG.notChild);
  const row = await db.query.companies.findFirst({ where: and(eq(c.id, id), eq(c.parentId, auth.company.id), isNull(c.deletedAt)) });
  return row ?? notFound(LIFECYCLE_MSG.notChild);
}

export type StockRow = { id: number; serialNumber: string; serialFront: string; serialBack: string; boardType: string };

/** GET company/getCompanyStock: the caller's stock boards, by serial number. */
export async function getCompanyStock(db: Db, auth: Auth, opts: { page?: Page } = {}) {
  assertVarPanel(auth);
  const where = and(eq(d.companyId, auth.company.id), eq(d.status, "stock"), isNull(d.deletedAt));
  const base = db
    .select({ id: d.id, serialNumber: d.serialNumber, serialFront: d.serialFront, serialBack: d.serialBack, boardType })
    .from(d)
    .where(where)
    .orderBy(asc(d.serialNumber), asc(d.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, d, where)]);
  return { company: { id: auth.company.id, name: auth.company.name, code: auth.company.code }, rows: rows as StockRow[], total: Number(totals[0]?.n ?? 0) };
}

export type TransferReportRow = { id: number; transferred: boolean; message: string };

/**
 * POST company/transferDevices: moves stock boards of the caller's company to one of its child
 * companies. As stock they stay stock there (not for an ec company, which cannot resell); otherwise
 * they become unconfigured with the shipping date as their start date. All or nothing, in one batch:
 * the transfer, its items, both audit entries and the devices (the feed trigger tells gateways).
 *
 * Every statement of the batch carries one guard, "all these boards are still in the caller's stock",
 * and the devices' update comes last, so the records are written only by the call that moves the
 * boards: of two transfers of one board at once, the second finds them gone and gets the per-row
 * report with the spec's message, as a board already transferred before the call does.
 */
export async function transferDevices(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string; transferred: number }> {
  assertVarPanel(auth, "modify");
  const v = parseInput(transferSchema(todayOf(now, companyZone(auth))), input);
  if (v.fromCompany != null && (await companyIdOf(db, v.fromCompany)) !== auth.company.id) notFound(LIFECYCLE_MSG.notChild);
  const target = await findChildCompany(db, auth, await companyIdOf(db, v.toCompany));
  if (target.type === "ec" && v.status === "stock") throw new ServiceError(400, LIFECYCLE_MSG.stockToEc, { fieldErrors: { status: [LIFECYCLE_MSG.stockToEc] } });
  const ids = [...new Set(v.transferDevices)];
  // One JSON parameter names them all (D1 binds at most 100 parameters).
  const theseBoards = sql`${d.id} in (select value from json_each(${JSON.stringify(ids)}))`;
  const mine = and(eq(d.companyId, auth.company.id), eq(d.status, "stock"), isNull(d.deletedAt), theseBoards);
  if ((await inStock(db, mine)).length !== ids.length) await refuseTransfer(db, mine, ids);

  const allInStock = sql`(select count(*) from ${d} where ${mine}) = ${ids.length}`;
  const transferId = sql`(select max(id) from device_transfers where company_id = ${auth.company.id})`;
  const summary = `${ids.length} to ${target.name} (${target.code}) as ${v.status}${v.shippingDate ? `, shipping ${v.shippingDate}, ${v.subscriptionTerm}-year term` : ""}`;
  const details = {
    to_company: target.code,
    from_company: auth.company.code,
    status: v.status,
    shipping_date: v.shippingDate,
    subscription_term: v.subscriptionTerm,
    devices: ids,
  };
  const transfer = {
    companyId: auth.company.id,
    toCompanyId: target.id,
    status: v.status,
    shippingDate: v.shippingDate,
    subscriptionTerm: v.subscriptionTerm,
    createdByUserId: auth.user.id,
    createdAt: now,
  };
  const results = await db.batch([
    insertWhen(db, schema.deviceTransfers, transfer, allInStock),
    db.insert(schema.deviceTransferItems).select(sql`select ${transferId}, value from json_each(${JSON.stringify(ids)}) where ${allInStock}`),
    activityInsertWhen(db, { companyId: auth.company.id, name: "Devices Transferred", createdByUserId: auth.user.id, summary, details, at: now }, allInStock),
    // The receiving company sees the delivery, not the reseller's user.
    activityInsertWhen(
      db,
      { companyId: target.id, name: "Devices Transferred", summary: `${ids.length} from ${auth.company.name} (${auth.company.code}) as ${v.status}`, details, at: now },
      allInStock,
    ),
    db
      .update(d)
      .set({
        companyId: target.id,
        status: v.status,
        shippingDate: v.shippingDate,
        startDate: v.shippingDate,
        subscriptionTerm: v.subscriptionTerm,
        // The cell the boards leave still delivers what its gateway buffered for them, and for a day their
        // events go by board time to the company they were in, read from the transfers (gateway-cells.server.ts).
        previousCell: sql`(select ${schema.companies.cell} from ${schema.companies} where ${schema.companies.id} = ${auth.company.id})`,
        cellMovedAt: now,
        updatedAt: now,
      })
      .where(and(mine, allInStock))
      .returning({ id: d.id }),
  ]);
  if (results[4].length !== ids.length) await refuseTransfer(db, mine, ids);
  return { message: LIFECYCLE_MSG.transferred, transferred: ids.length };
}

const inStock = (db: Db, mine: SQL | undefined) => db.select({ id: d.id }).from(d).where(mine);

/** 404 with a row per board: the ones no longer (or never) in the caller's stock carry the spec's message. */
async function refuseTransfer(db: Db, mine: SQL | undefined, ids: number[]): Promise<never> {
  const still = new Set((await inStock(db, mine)).map((r) => r.id));
  const report: TransferReportRow[] = ids.map((id) => ({ id, transferred: false, message: still.has(id) ? "" : LIFECYCLE_MSG.notInStock }));
  throw new ServiceError(404, LIFECYCLE_MSG.notInStock, { payload: { report } });
}
