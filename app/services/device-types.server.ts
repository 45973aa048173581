/**
 * Device types (spec part 2 §2 Device types, §3, §5, §7 `deviceType/*`): platform-wide reference
 * data. Holders of the deviceType or company module may read them; only the root company changes
 * them. A type still used by a device or a firmware release cannot be deleted.
 */
import { and, asc, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { DEVICE_TYPE_MSG, deviceTypeFormSchema, type DeviceTypeInput } from "~/schemas/device-types";
import { activityInsert } from "~/utils/activity-insert.server";
import { parseInput } from "~/utils/parse-input.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import type { Action } from "~/utils/permissions";

const dt = schema.deviceTypes;
const MODULES = ["deviceType", "company"] as const;

export type DeviceTypeRow = { id: number; deviceCode: string; deviceType: string; devices: number; createdAt: number };
export type DeviceTypeDetails = { id: number; deviceCode: string; deviceType: string };

export function assertMay(auth: Auth, action: Action) {
  assertCan(auth, MODULES, action);
  if (action !== "view" && auth.company.type !== "root") forbidden();
}

const devicesUsing = sql<number>`(select count(*) from devices where devices.device_type_id = device_types.id and devices.deleted_at is null)`;
export const DEVICE_TYPE_SORTS = { code: dt.deviceCode, type: dt.deviceType, devices: devicesUsing, createdAt: dt.createdAt } as const;

export async function listDeviceTypes(
  db: Db,
  auth: Auth,
  opts: { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } } = {},
): Promise<{ rows: DeviceTypeRow[]; total: number }> {
  assertMay(auth, "view");
  const key = opts.sort && opts.sort.key in DEVICE_TYPE_SORTS ? (opts.sort.key as keyof typeof DEVICE_TYPE_SORTS) : "code";
  const dir = opts.sort?.desc ? desc : asc;
  const base = db
    .select({ id: dt.id, deviceCode: dt.deviceCode, deviceType: dt.deviceType, devices: devicesUsing, createdAt: dt.createdAt })
    .from(dt)
    .orderBy(dir(DEVICE_TYPE_SORTS[key]), asc(dt.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, dt)]);
  return { rows: rows.map((r) => ({ ...r, devices: Number(r.devices) })), total: totals[0]?.n ?? 0 };
}

async function find(db: Db, id: number) {
  if (!Number.isInteger(id) || id <= 0) notFound(DEVICE_TYPE_MSG.notFound);
  const row = await db.query.deviceTypes.findFirst({ where: eq(dt.id, id) });
  return row ?? notFound(DEVICE_TYPE_MSG.notFound);
}

export async function getDeviceTypeDetails(db: Db, auth: Auth, id: number): Promise<DeviceTypeDetails> {
  assertMay(auth, "view");
  const row = await find(db, id);
  return { id: row.id, deviceCode: row.deviceCode, deviceType: row.deviceType };
}

const parse = (input: unknown): DeviceTypeInput => parseInput(deviceTypeFormSchema, input);

async function assertCodeFree(db: Db, code: string, exceptId?: number) {
  const row = await db
    .select({ id: dt.id })
    .from(dt)
    .where(and(sql`lower(${dt.deviceCode}) = ${code.toLowerCase()}`, exceptId ? ne(dt.id, exceptId) : undefined))
    .limit(1);
  if (row.length) throw new ServiceError(422, DEVICE_TYPE_MSG.codeTaken, { fieldErrors: { deviceCode: [DEVICE_TYPE_MSG.codeTaken] } });
}

export async function addDeviceType(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string }> {
  assertMay(auth, "add");
  const v = parse(input);
  await assertCodeFree(db, v.deviceCode);
  await db.batch([
    db.insert(dt).values({ deviceCode: v.deviceCode, deviceType: v.deviceType, createdAt: now }),
    activityInsert(db, { companyId: auth.company.id, name: "Device Type Created", createdByUserId: auth.user.id, summary: `${v.deviceType} (${v.deviceCode})`, at: now }),
  ]);
  return { message: DEVICE_TYPE_MSG.created };
}

export async function updateDeviceType(db: Db, auth: Auth, id: number, input: unknown, now: number): Promise<{ message: string }> {
  assertMay(auth, "modify");
  const row = await find(db, id);
  const v = parse(input);
  await assertCodeFree(db, v.deviceCode, row.id);
  await db.batch([
    db.update(dt).set({ deviceCode: v.deviceCode, deviceType: v.deviceType }).where(eq(dt.id, row.id)),
    activityInsert(db, { companyId: auth.company.id, name: "Device Type Modified", createdByUserId: auth.user.id, summary: `${v.deviceType} (${v.deviceCode})`, at: now }),
  ]);
  return { message: DEVICE_TYPE_MSG.modified };
}

export async function deleteDeviceType(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertMay(auth, "delete");
  const row = await find(db, id);
  const [devices, firmware] = await db.batch([
    db
      .select({ id: schema.devices.id })
      .from(schema.devices)
      .where(and(eq(schema.devices.deviceTypeId, row.id), isNull(schema.devices.deletedAt)))
      .limit(1),
    db
      .select({ id: schema.firmwareReleases.id })
      .from(schema.firmwareReleases)
      .where(and(eq(schema.firmwareReleases.deviceTypeId, row.id), isNull(schema.firmwareReleases.deletedAt)))
      .limit(1),
  ]);
  if (devices.length || firmware.length) throw new ServiceError(422, DEVICE_TYPE_MSG.inUse);
  await db.batch([
    db.delete(dt).where(eq(dt.id, row.id)),
    activityInsert(db, { companyId: auth.company.id, name: "Removed Device Type", createdByUserId: auth.user.id, summary: `${row.deviceType} (${row.deviceCode})`, at: now }),
  ]);
  return { message: DEVICE_TYPE_MSG.removed };
}
