/**
 * The company's firmware policy where an update is started (decision 0116). With "force firmware
 * update" the gateways offer each board its type's active release on their own, so there is nothing to
 * start. Otherwise a user the "allowed to update firmware" setting admits (everyone, or installers only)
 * starts it for one of the company's boards: the release's id is stored on the device, the feed carries
 * it, and the gateway offers that release to that board alone.
 */
import { and, eq, sql } from "drizzle-orm";
import { FIRMWARE_START_MSG, mayStartFirmware, type FirmwareStartInput } from "~/schemas/firmware-start";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { liveInCompany } from "~/utils/tenant.server";

/** The company's two settings and whether the caller may start an update under them. */
export async function firmwarePolicy(db: Db, auth: Auth) {
  const [[settings], [user]] = await db.batch([
    db
      .select({ allowed: schema.companySettings.allowedFirmware, forced: schema.companySettings.isForceFirmwareUpdate })
      .from(schema.companySettings)
      .where(eq(schema.companySettings.companyId, auth.company.id)),
    db.select({ isInstaller: schema.users.isInstaller }).from(schema.users).where(eq(schema.users.id, auth.user.id)),
  ]);
  const allowed = settings?.allowed ?? "All Users";
  const forced = Boolean(settings?.forced);
  return { allowed, forced, mayStart: !forced && mayStartFirmware(allowed, Boolean(user?.isInstaller)) };
}

/** The company's devices among `deviceIds`, each with its installed version, its type's active release and the release started for it. */
export function devicesReleases(db: Db, auth: Auth, deviceIds: number[]) {
  const d = schema.devices;
  const f = schema.firmwareReleases;
  return db
    .select({ id: d.id, name: d.fullName, installed: d.firmwareVersion, startedReleaseId: d.firmwareStartReleaseId, releaseId: f.id, version: f.version })
    .from(d)
    .leftJoin(f, and(eq(f.deviceTypeId, d.deviceTypeId), eq(f.isActive, true)))
    .where(liveInCompany(d, auth, sql`${d.id} in (select value from json_each(${JSON.stringify(deviceIds)}))`));
}

/** One device's row of `devicesReleases` (404 outside the company). */
async function deviceRelease(db: Db, auth: Auth, deviceId: number) {
  const [found] = await devicesReleases(db, auth, [deviceId]);
  return found ?? notFound("Device not found");
}

/** What the device page shows: the policy, the versions, and whether the update of this board was started. */
export async function deviceFirmware(db: Db, auth: Auth, deviceId: number) {
  const [policy, found] = await Promise.all([firmwarePolicy(db, auth), deviceRelease(db, auth, deviceId)]);
  const release = found.releaseId != null && found.version != null ? { id: found.releaseId, version: found.version } : null;
  return {
    allowed: policy.allowed,
    forced: policy.forced,
    installed: found.installed,
    release,
    upToDate: release != null && found.installed === release.version,
    started: release != null && found.startedReleaseId === release.id,
    mayStart: policy.mayStart,
  };
}

export async function startFirmwareUpdate(db: Db, auth: Auth, input: FirmwareStartInput, now: number) {
  // The phone app's users hold no console role: the company's policy alone is their right there.
  if (auth.session.kind !== "mobile") assertCan(auth, "devices", "modify");
  const policy = await firmwarePolicy(db, auth);
  if (policy.forced) throw new ServiceError(409, FIRMWARE_START_MSG.forced, { errorCode: "firmware-forced" });
  if (!policy.mayStart) throw new ServiceError(403, FIRMWARE_START_MSG.installerOnly, { errorCode: "firmware-installer-only" });
  const found = await deviceRelease(db, auth, input.deviceId);
  if (found.releaseId == null || found.version == null) throw new ServiceError(409, FIRMWARE_START_MSG.noRelease, { errorCode: "firmware-none" });
  if (found.installed === found.version) throw new ServiceError(409, FIRMWARE_START_MSG.upToDate, { errorCode: "firmware-up-to-date" });
  await db.batch([
    db.update(schema.devices).set({ firmwareStartReleaseId: found.releaseId }).where(eq(schema.devices.id, found.id)),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Firmware Update Started",
      operationType: auth.session.kind === "mobile" ? "App" : "Admin",
      createdByUserId: auth.user.id,
      targetDeviceId: found.id,
      summary: `Firmware ${found.version} update started for ${found.name}`,
      details: { releaseId: found.releaseId, version: found.version, from: found.installed },
      at: now,
    }),
  ]);
  return { message: FIRMWARE_START_MSG.started, releaseId: found.releaseId, version: found.version };
}
