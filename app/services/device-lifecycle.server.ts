/**
 * The device lifecycle (decision 0022): stock → unconfigured → configured → retired.
 *
 * - Registration: the root company registers boards into its own stock or a reseller's, one at a time
 *   or from a CSV, with a per-row report.
 * - Configuration: a company admin (devices, modify) or an installer names an unconfigured device and
 *   sets what /deviceDetails shows; that issues the board's secret, shown once and stored only as
 *   `hmac-sha256$salt$hash` (decision 0110).
 * - Editing a configured device's settings without removing its configuration.
 * - Rotating the secret, removing the configuration (the user types the display name) and retiring.
 *
 * Every change is one batch with its audit entry; the devices trigger writes the feed row, and the
 * feed tells gateways that only a configured device admits anyone, so a board of any other state, or
 * one whose secret changed, is disconnected at the next sync.
 */
import { and, eq, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import {
  configureSchema,
  LIFECYCLE_MSG,
  MAX_REGISTER_ROWS,
  normalizeSerial,
  parseRegisterCsv,
  registerSchema,
  removeConfigurationSchema,
  SERIAL_RE,
  type RegisterRow,
} from "~/schemas/device-lifecycle";
import { activityInsert, activityInsertWhen } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { hashSecret, newSecret } from "~/utils/secret-hash.server";
import { chunks, schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { can } from "~/utils/permissions";
import { liveInCompany } from "~/utils/tenant.server";
import { companyIdOf } from "./companies.server";

const { companies: c, devices: d } = schema;
type BatchItem = Parameters<Db["batch"]>[0][number];

// ---------------------------------------------------------------- registration

export type RegisterReportRow = { row: number; serialFront: string; serialBack: string; deviceType: string; registered: boolean; message: string };

/** Companies whose stock the root may fill: its own, and any live var company. */
export async function listStockOwners(db: Db, auth: Auth) {
  assertRegistrar(auth);
  return db
    .select({ id: c.id, name: c.name, code: c.code, type: c.type })
    .from(c)
    .where(and(isNull(c.deletedAt), or(eq(c.id, auth.company.id), eq(c.type, "var"))))
    .orderBy(c.name, c.id);
}

export function assertRegistrar(auth: Auth) {
  if (auth.company.type !== "root") forbidden();
  assertCan(auth, "company", "add");
}

async function resolveStockOwner(db: Db, auth: Auth, ref: number | string) {
  const id = await companyIdOf(db, ref);
  const row = await db.query.companies.findFirst({
    where: and(isNull(c.deletedAt), eq(c.id, id), or(eq(c.id, auth.company.id), eq(c.type, "var"))),
  });
  return row ?? notFound("The provided company code is invalid");
}

/**
 * POST device/registerDevices: validates every row, registers the good ones as stock of the target
 * company in one batch and reports each row. Nothing registered is a 422 with the report.
 */
export async function registerDevices(db: Db, auth: Auth, input: unknown, now: number) {
  assertRegistrar(auth);
  const v = parseInput(registerSchema, input);
  const owner = await resolveStockOwner(db, auth, v.companyId);
  const csv = v.devices?.length ? null : parseRegisterCsv(v.csv ?? "");
  if (csv && !csv.ok) throw new ServiceError(400, LIFECYCLE_MSG.unterminatedQuote);
  const rows: RegisterRow[] = csv ? csv.rows : v.devices!;
  if (rows.length === 0) throw new ServiceError(400, LIFECYCLE_MSG.invalidSerial);
  if (rows.length > MAX_REGISTER_ROWS) throw new ServiceError(400, `At most ${MAX_REGISTER_ROWS} devices at a time`);

  const types = await db.select().from(schema.deviceTypes);
  const typeOf = (name: string) => types.find((t) => t.deviceCode.toUpperCase() === name.toUpperCase() || t.deviceType.toUpperCase() === name.toUpperCase());
  const serials = [...new Set(rows.flatMap((r) => [normalizeSerial(r.serialFront), normalizeSerial(r.serialBack)]).filter((s) => SERIAL_RE.test(s)))];
  const taken = new Set<string>();
  for (const part of chunks(serials, 30)) {
    const hits = await db
      .select({ a: d.serialNumber, b: d.serialFront, c: d.serialBack })
      .from(d)
      .where(or(inArray(d.serialNumber, part), inArray(d.serialFront, part), inArray(d.serialBack, part)));
    for (const h of hits) [h.a, h.b, h.c].forEach((s) => s && taken.add(s.toUpperCase()));
  }

  const report: RegisterReportRow[] = [];
  const good: { front: string; back: string; typeId: number }[] = [];
  rows.forEach((r, i) => {
    const front = normalizeSerial(r.serialFront);
    const back = normalizeSerial(r.serialBack);
    const typeName = (r.deviceType ?? "").trim();
    const type = typeOf(typeName);
    const base = { row: i + 1, serialFront: front, serialBack: back, deviceType: typeName };
    let message = "";
    if (!SERIAL_RE.test(front) || !SERIAL_RE.test(back) || front === back) message = LIFECYCLE_MSG.invalidSerial;
    else if (taken.has(front) || taken.has(back)) message = LIFECYCLE_MSG.exists;
    else if (!type) message = LIFECYCLE_MSG.badType;
    if (message || !type) return report.push({ ...base, registered: false, message });
    taken.add(front).add(back);
    good.push({ front, back, typeId: type.id });
    report.push({ ...base, deviceType: type.deviceCode, registered: true, message: "" });
  });
  if (good.length === 0) throw new ServiceError(422, report[0].message, { payload: { report } });

  const statements: BatchItem[] = [
    ...good.map((g) =>
      db
        .insert(d)
        .values({ companyId: owner.id, deviceTypeId: g.typeId, serialNumber: g.front, serialFront: g.front, serialBack: g.back, status: "stock", createdAt: now, updatedAt: now }),
    ),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Devices Registered",
      createdByUserId: auth.user.id,
      summary: `${good.length} into the stock of ${owner.name} (${owner.code})`,
      details: { company_id: owner.code, serials: good.map((g) => g.front) },
      at: now,
    }),
  ];
  // A simultaneous registration of a serial passes the check above too; the unique serial index stops
  // it and the batch writes nothing, audit included: the caller gets the spec's message, not a 500.
  await db.batch(statements as [BatchItem, ...BatchItem[]]).catch((e: unknown) => {
    if (/UNIQUE constraint failed: devices\.serial_number/.test(String((e as Error)?.message ?? e) + String((e as Error)?.cause ?? "")))
      throw new ServiceError(422, LIFECYCLE_MSG.exists, {
        payload: { report: report.map((r) => ({ ...r, registered: false, message: r.registered ? LIFECYCLE_MSG.exists : r.message })) },
      });
    throw e;
  });
  return { message: LIFECYCLE_MSG.registered, registered: good.length, rejected: report.length - good.length, report };
}

// ---------------------------------------------------------------- configuration

/** Company admins with the devices module change devices; an installer of the company may configure. */
async function mayConfigure(db: Db, auth: Auth, action: "modify" | "delete"): Promise<boolean> {
  if (can(auth.permissions, "devices", action)) return true;
  if (!auth.permissions.devices) return false;
  const me = await db.query.users.findFirst({ where: eq(schema.users.id, auth.user.id), columns: { isInstaller: true } });
  return !!me?.isInstaller;
}

export async function assertConfigurer(db: Db, auth: Auth, action: "modify" | "delete") {
  if (!(await mayConfigure(db, auth, action))) forbidden();
}

/** What the caller may do on /deviceDetails, so the page offers only what the server will accept. */
export async function lifecycleRights(db: Db, auth: Auth) {
  return { configure: await mayConfigure(db, auth, "modify"), remove: await mayConfigure(db, auth, "delete"), retire: can(auth.permissions, "devices", "delete") };
}

/**
 * The guard of a lifecycle change: the device is still the caller's, live and in the state the
 * change starts from. The audit entry (`activityInsertWhen`) goes before the guarded update in the
 * same batch with the same guard, so of two calls at once only the one that changes the row records it.
 */
const stillIn = (auth: Auth, id: number, ...state: SQL[]) => liveInCompany(d, auth, eq(d.id, id), ...state);
const exists = (still: SQL) => sql`exists (select 1 from ${d} where ${still})`;

async function findOwnDevice(db: Db, auth: Auth, id: number) {
  const row = await db.query.devices.findFirst({ where: liveInCompany(d, auth, eq(d.id, id)) });
  return row ?? notFound(LIFECYCLE_MSG.notYours);
}

/** A full name is unique among the company's live, unretired devices (case-insensitive). */
async function assertNameFree(db: Db, auth: Auth, fullName: string, exceptId: number) {
  const clash = await db
    .select({ id: d.id })
    .from(d)
    .where(liveInCompany(d, auth, ne(d.id, exceptId), ne(d.status, "retired"), sql`lower(${d.fullName}) = ${fullName.toLowerCase()}`))
    .limit(1);
  if (clash.length) throw new ServiceError(422, LIFECYCLE_MSG.exists, { fieldErrors: { fullName: [LIFECYCLE_MSG.exists] } });
}

export type IssuedSecret = { message: string; id: number; serialNumber: string; displayName: string; secret: string };

/** Configures an unconfigured device and issues its board secret (returned once, never stored). */
export async function configureDevice(db: Db, auth: Auth, input: unknown, now: number): Promise<IssuedSecret> {
  await assertConfigurer(db, auth, "modify");
  const v = parseInput(configureSchema, input);
  const device = await findOwnDevice(db, auth, v.id);
  if (device.status === "configured") throw new ServiceError(422, LIFECYCLE_MSG.exists);
  if (device.status !== "unconfigured") throw new ServiceError(422, LIFECYCLE_MSG.configNotFound);
  await assertNameFree(db, auth, v.fullName, device.id);
  const secret = newSecret();
  const { id, ...settings } = v;
  const still = stillIn(auth, id, eq(d.status, "unconfigured"));
  const [, moved] = await db.batch([
    activityInsertWhen(
      db,
      { companyId: auth.company.id, name: "Device Configured", createdByUserId: auth.user.id, targetDeviceId: id, summary: `${v.fullName} (${device.serialNumber})`, at: now },
      exists(still),
    ),
    db
      .update(d)
      .set({ ...settings, status: "configured", installedAt: now, boardSecretHash: await hashSecret(secret), updatedAt: now })
      .where(still)
      .returning({ id: d.id }),
  ]);
  // Changed by a simultaneous call (configured, retired): this secret was never stored.
  if (moved.length === 0) throw new ServiceError(409, LIFECYCLE_MSG.notAdded);
  return { message: LIFECYCLE_MSG.configured, id, serialNumber: device.serialNumber, displayName: v.displayName, secret };
}

async function findConfigured(db: Db, auth: Auth, id: number) {
  const device = await findOwnDevice(db, auth, id);
  return device.status === "configured" ? device : notFound(LIFECYCLE_MSG.configNotFound);
}

/**
 * Changes a configured device's names and settings in place: its configuration and board secret
 * stay. A new name or re-lock time reaches the gateways through the devices trigger (decision 0057).
 */
export async function updateDeviceSettings(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string }> {
  await assertConfigurer(db, auth, "modify");
  const v = parseInput(configureSchema, input);
  const device = await findConfigured(db, auth, v.id);
  await assertNameFree(db, auth, v.fullName, device.id);
  const { id, ...settings } = v;
  const still = stillIn(auth, id, eq(d.status, "configured"));
  const [, moved] = await db.batch([
    activityInsertWhen(
      db,
      {
        companyId: auth.company.id,
        name: "Device Settings Changed",
        createdByUserId: auth.user.id,
        targetDeviceId: id,
        summary: `${v.fullName} (${device.serialNumber})`,
        at: now,
      },
      exists(still),
    ),
    db
      .update(d)
      .set({ ...settings, updatedAt: now })
      .where(still)
      .returning({ id: d.id }),
  ]);
  if (moved.length === 0) throw new ServiceError(409, LIFECYCLE_MSG.updateFailed);
  return { message: LIFECYCLE_MSG.settingsSaved };
}

/** A new secret for a configured device; the board holding the old one is disconnected at the next sync. */
export async function rotateDeviceSecret(db: Db, auth: Auth, id: number, now: number): Promise<IssuedSecret> {
  await assertConfigurer(db, auth, "modify");
  const device = await findConfigured(db, auth, id);
  const secret = newSecret();
  // Guarded by the hash it replaces: of two rotations at once only one secret is issued and stored.
  const still = stillIn(auth, id, eq(d.status, "configured"), device.boardSecretHash == null ? isNull(d.boardSecretHash) : eq(d.boardSecretHash, device.boardSecretHash));
  const [, moved] = await db.batch([
    activityInsertWhen(
      db,
      {
        companyId: auth.company.id,
        name: "Device Secret Rotated",
        createdByUserId: auth.user.id,
        targetDeviceId: id,
        summary: `${device.fullName} (${device.serialNumber})`,
        at: now,
      },
      exists(still),
    ),
    db
      .update(d)
      .set({ boardSecretHash: await hashSecret(secret), updatedAt: now })
      .where(still)
      .returning({ id: d.id }),
  ]);
  if (moved.length === 0) throw new ServiceError(409, LIFECYCLE_MSG.updateFailed);
  return { message: LIFECYCLE_MSG.rotated, id, serialNumber: device.serialNumber, displayName: device.displayName, secret };
}

/** Back to unconfigured: names, settings' install date and secret cleared, once the user typed the display name. */
export async function removeDeviceConfiguration(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string }> {
  await assertConfigurer(db, auth, "delete");
  const v = parseInput(removeConfigurationSchema, input);
  const device = await findConfigured(db, auth, v.id);
  if (v.displayName.toLowerCase() !== device.displayName.trim().toLowerCase())
    throw new ServiceError(400, LIFECYCLE_MSG.removeConfirm, { fieldErrors: { displayName: [LIFECYCLE_MSG.removeConfirm] } });
  const still = stillIn(auth, v.id, eq(d.status, "configured"));
  const [, moved] = await db.batch([
    activityInsertWhen(
      db,
      {
        companyId: auth.company.id,
        name: "Device Configuration Removed",
        createdByUserId: auth.user.id,
        targetDeviceId: v.id,
        summary: `${device.fullName} (${device.serialNumber})`,
        at: now,
      },
      exists(still),
    ),
    db.update(d).set({ status: "unconfigured", fullName: "", displayName: "", installedAt: null, boardSecretHash: null, updatedAt: now }).where(still).returning({ id: d.id }),
  ]);
  if (moved.length === 0) notFound(LIFECYCLE_MSG.configNotFound);
  return { message: LIFECYCLE_MSG.removed };
}

/** Retires an unconfigured or configured device: it admits nobody again, its board is disconnected, its history stays. */
export async function retireDevice(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertCan(auth, "devices", "delete");
  const device = await findOwnDevice(db, auth, id);
  if (device.status !== "configured" && device.status !== "unconfigured") notFound(LIFECYCLE_MSG.configNotFound);
  const still = stillIn(auth, id, inArray(d.status, ["configured", "unconfigured"]));
  const [, moved] = await db.batch([
    activityInsertWhen(
      db,
      {
        companyId: auth.company.id,
        name: "Device Retired",
        createdByUserId: auth.user.id,
        targetDeviceId: id,
        summary: `${device.fullName || device.serialNumber} (${device.serialNumber})`,
        at: now,
      },
      exists(still),
    ),
    db.update(d).set({ status: "retired", boardSecretHash: null, updatedAt: now }).where(still).returning({ id: d.id }),
  ]);
  if (moved.length === 0) notFound(LIFECYCLE_MSG.configNotFound);
  return { message: LIFECYCLE_MSG.retired };
}
