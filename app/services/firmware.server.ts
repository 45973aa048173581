/**
 * Firmware (OTA) releases: upload into R2, make active per device type, remove, and each board's
 * delivery progress. Releases are platform-wide (every company's boards of a type run the same
 * image), so the guard is the `company` module rather than a tenant filter. Every change writes its
 * audit row in the same D1 batch; the database adds the feed row gateways follow (decision 0030).
 */
import { and, asc, desc, eq, isNull, ne, type SQL } from "drizzle-orm";
import { ROLLOUT_MSG } from "~/schemas/firmware-rollouts";
import type { AddOtaInput } from "~/schemas/firmware";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { openRolloutOf } from "./firmware-rollouts.server";

const f = schema.firmwareReleases;

export type ReleaseRow = {
  id: number;
  version: string;
  versionDescription: string;
  deviceType: string | null;
  fileName: string;
  size: number;
  sha256: string;
  isActive: boolean;
  createdAt: number;
};

export const OTA_PAGE_SIZE = 25;

export async function listReleases(db: Db, auth: Auth, { page = 1, pageSize = OTA_PAGE_SIZE } = {}) {
  assertCan(auth, "company");
  const live = isNull(f.deletedAt);
  const [rows, [total]] = await db.batch([
    db
      .select({
        id: f.id,
        version: f.version,
        versionDescription: f.versionDescription,
        deviceType: schema.deviceTypes.deviceCode,
        fileName: f.fileName,
        size: f.size,
        sha256: f.sha256,
        isActive: f.isActive,
        createdAt: f.createdAt,
      })
      .from(f)
      .leftJoin(schema.deviceTypes, eq(schema.deviceTypes.id, f.deviceTypeId))
      .where(live)
      .orderBy(desc(f.createdAt), desc(f.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    countWhere(db, f, live),
  ]);
  return { rows: rows as ReleaseRow[], total: total.n };
}

export async function listDeviceTypes(db: Db) {
  return db
    .select({ id: schema.deviceTypes.id, code: schema.deviceTypes.deviceCode, name: schema.deviceTypes.deviceType })
    .from(schema.deviceTypes)
    .orderBy(asc(schema.deviceTypes.deviceCode));
}

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Stores the zip under its SHA-256 (the same image uploaded twice is one object) and records the release. */
export async function createRelease(db: Db, bucket: R2Bucket, auth: Auth, input: AddOtaInput, now: number) {
  assertCan(auth, "company", "add");
  if (input.device_type_id != null) {
    const [type] = await db.select({ id: schema.deviceTypes.id }).from(schema.deviceTypes).where(eq(schema.deviceTypes.id, input.device_type_id));
    if (!type) throw new ServiceError(400, "Unknown device type", { fieldErrors: { device_type_id: ["Unknown device type"] } });
  }
  const bytes = await input.zip_file.arrayBuffer();
  const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
  const r2Key = `firmware/${sha256}.zip`;
  await bucket.put(r2Key, bytes, { httpMetadata: { contentType: "application/zip" }, sha256 });

  // One batch: the release, its feed row (last_insert_rowid() is the release's id inside the
  // transaction) and the audit entry land together.
  const [inserted] = await db.batch([
    db
      .insert(f)
      .values({
        companyId: auth.company.id,
        deviceTypeId: input.device_type_id,
        version: input.version,
        versionDescription: input.version_description,
        r2Key,
        fileName: input.zip_file.name.slice(0, 200),
        size: bytes.byteLength,
        sha256,
        createdAt: now,
      })
      .returning({ id: f.id }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Firmware Uploaded",
      createdByUserId: auth.user.id,
      summary: `Firmware ${input.version} uploaded`,
      details: { version: input.version, fileName: input.zip_file.name, size: bytes.byteLength, sha256 },
      at: now,
    }),
  ]);
  return { id: inserted[0].id, size: bytes.byteLength, sha256 };
}

async function liveRelease(db: Db, id: number) {
  const [row] = await db
    .select()
    .from(f)
    .where(and(eq(f.id, id), isNull(f.deletedAt)));
  return row ?? notFound("Firmware not found");
}

/**
 * The statements that make release `id` the active one of its device type (null: releases without one);
 * with `guard`, only while it holds when they run (a rollout completing, decision 0094).
 */
export function activationStatements(db: Db, deviceTypeId: number | null, id: number, guard?: SQL) {
  const sameType = deviceTypeId == null ? isNull(f.deviceTypeId) : eq(f.deviceTypeId, deviceTypeId);
  return [
    db
      .update(f)
      .set({ isActive: false })
      .where(and(sameType, eq(f.isActive, true), ne(f.id, id), guard)),
    db
      .update(f)
      .set({ isActive: true })
      .where(and(eq(f.id, id), guard)),
  ] as const;
}

/** A rollout of the type decides what its boards get until it ends: the active release stays as it is meanwhile. */
async function refuseWhileRolling(db: Db, deviceTypeId: number | null) {
  if (await openRolloutOf(db, deviceTypeId)) throw new ServiceError(409, ROLLOUT_MSG.open);
}

/** Makes one release the active one of its device type; the others of that type stop being offered. */
export async function activateRelease(db: Db, auth: Auth, id: number, now: number) {
  assertCan(auth, "company", "modify");
  const release = await liveRelease(db, id);
  await refuseWhileRolling(db, release.deviceTypeId);
  const sameType = release.deviceTypeId == null ? isNull(f.deviceTypeId) : eq(f.deviceTypeId, release.deviceTypeId);
  const others = await db
    .select({ id: f.id })
    .from(f)
    .where(and(sameType, eq(f.isActive, true), ne(f.id, id)));
  await db.batch([
    ...activationStatements(db, release.deviceTypeId, id),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Firmware Activated",
      createdByUserId: auth.user.id,
      summary: `Firmware ${release.version} made active`,
      details: { releaseId: id, version: release.version, deactivated: others.map((o) => o.id) },
      at: now,
    }),
  ]);
}

/** Removes a release (kept as a deleted row for the audit trail); its R2 object goes when nothing else uses it. */
export async function deleteRelease(db: Db, bucket: R2Bucket, auth: Auth, id: number, now: number) {
  assertCan(auth, "company", "delete");
  const release = await liveRelease(db, id);
  await refuseWhileRolling(db, release.deviceTypeId);
  await db.batch([
    db.update(f).set({ deletedAt: now, isActive: false }).where(eq(f.id, id)),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Firmware Removed",
      createdByUserId: auth.user.id,
      summary: `Firmware ${release.version} removed`,
      details: { releaseId: id, version: release.version },
      at: now,
    }),
  ]);
  const [shared] = await countWhere(db, f, and(eq(f.r2Key, release.r2Key), isNull(f.deletedAt)));
  if (shared.n === 0) await bucket.delete(release.r2Key);
}

export type ProgressRow = {
  deviceId: number;
  deviceName: string;
  company: string;
  releaseId: number;
  version: string;
  blocksDone: number;
  blocksTotal: number;
  state: string;
  detail: string;
  updatedAt: number;
};

/** Each board's progress, newest first; optionally for one release. */
export async function listProgress(db: Db, auth: Auth, { releaseId, limit = 200 }: { releaseId?: number; limit?: number } = {}) {
  assertCan(auth, "company");
  const p = schema.firmwareProgress;
  const rows = await db
    .select({
      deviceId: p.deviceId,
      deviceName: schema.devices.fullName,
      company: schema.companies.code,
      releaseId: p.releaseId,
      version: f.version,
      blocksDone: p.blocksDone,
      blocksTotal: p.blocksTotal,
      state: p.state,
      detail: p.detail,
      updatedAt: p.updatedAt,
    })
    .from(p)
    .innerJoin(f, eq(f.id, p.releaseId))
    .leftJoin(schema.devices, eq(schema.devices.id, p.deviceId))
    .leftJoin(schema.companies, eq(schema.companies.id, p.companyId))
    .where(releaseId ? eq(p.releaseId, releaseId) : undefined)
    .orderBy(desc(p.updatedAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, deviceName: r.deviceName ?? `Device ${r.deviceId}`, company: r.company ?? "" })) as ProgressRow[];
}

/** The stored image of a live release, for the gateway's download; null when there is none. */
/** The uploaded zip as an attachment, for people with the firmware screens' right (404 when gone). */
export async function releaseDownload(db: Db, bucket: R2Bucket, auth: Auth, id: number): Promise<Response> {
  assertCan(auth, "company");
  const found = await releaseObject(db, bucket, id);
  if (!found) throw notFound("No such firmware release");
  const name = found.release.fileName || `firmware-${found.release.version}.zip`;
  return new Response(found.object.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(found.release.size),
      "Content-Disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "X-Firmware-Sha256": found.release.sha256,
      "Cache-Control": "private, no-store",
    },
  });
}

export async function releaseObject(db: Db, bucket: R2Bucket, id: number) {
  const [row] = await db
    .select()
    .from(f)
    .where(and(eq(f.id, id), isNull(f.deletedAt)));
  if (!row) return null;
  const object = await bucket.get(row.r2Key);
  return object ? { release: row, object } : null;
}
