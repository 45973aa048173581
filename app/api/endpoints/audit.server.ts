import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { companyCode } from "~/schemas/auth";
import { freeText } from "~/schemas/text";
import { recordSignOut } from "~/services/auth.server";
import { overRateLimit, THROTTLE } from "~/services/throttle.server";
import { activityInsert } from "~/utils/activity-insert.server";
import type { Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { clientIp } from "~/utils/session.server";
import { sha256Hex } from "~/utils/tokens.server";
import { endpoint } from "../define.server";

const auditBody = z.object({
  /** Accepted for the spec's shape; the entry's type always comes from the activity catalogue. */
  operation_type: z.enum(["Admin", "App", "Sentinel", "Device"]).default("Admin"),
  device_id: z.coerce.number().int().positive().nullish(),
  device_group_id: z.coerce.number().int().positive().nullish(),
  summary: z.string().trim().pipe(freeText("summary", 500)).default(""),
  activity_description: z.string({ required_error: "activity_description is required" }).trim().min(1, "activity_description is required").max(100),
});

type Report = {
  operation: "Admin" | "App" | "Sentinel";
  /** The report names the door it happened at (a device of the caller's company). */
  device: boolean;
  /** Only a caller holding an e-key to that door (directly or through a group) may report it. */
  key?: boolean;
  /** Only sentinel users (and super admins, who are sentinels) may report it. */
  sentinel?: boolean;
};

/**
 * What a client legitimately reports about itself: its own sign-out, and what the mobile app did at
 * a door. Everything else in the catalogue is written by the server where it happens (changes,
 * sign-ins, device events) and cannot be written through these calls.
 */
export const CLIENT_REPORTS: Record<string, Report> = {
  "User Logs Out": { operation: "Admin", device: false },
  "Unlocked With App": { operation: "App", device: true, key: true },
  "App Access Denied": { operation: "App", device: true },
  "Sentinel Unlock": { operation: "Sentinel", device: true, sentinel: true },
  "Sentinel Lock": { operation: "Sentinel", device: true, sentinel: true },
};

/** Without a session only a sign-out may be reported (the idle tab has already lost its token). */
const ANONYMOUS_ACTIVITIES = new Set(["User Logs Out"]);
/** Anonymous reports per client address in the throttle window. */
export const ANONYMOUS_LIMIT = { perClient: 10 } as const;

async function reportOf(db: Db, name: string): Promise<Report> {
  const row = await db.query.activityTypes.findFirst({ where: eq(schema.activityTypes.name, name) });
  if (!row) throw new ServiceError(400, `Unknown activity '${name}'`);
  const report = CLIENT_REPORTS[name];
  if (!report) throw new ServiceError(403, `'${name}' is recorded by the server and cannot be reported by a client`);
  return report;
}

async function assertInCompany(db: Db, companyId: number, table: typeof schema.devices | typeof schema.deviceGroups, id: number | null | undefined) {
  if (id == null) return;
  const row = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.id, id), eq(table.companyId, companyId), isNull(table.deletedAt)))
    .limit(1);
  if (!row[0]) throw new ServiceError(404, "This device does not belong to your company");
}

/** Whether the user holds an e-key to the device, on the device itself or on a group that contains it. */
async function holdsKey(db: Db, auth: Auth, deviceId: number): Promise<boolean> {
  const k = schema.ekeyAssignments;
  const m = schema.deviceGroupMembers;
  const rows = await db
    .select({ id: k.id })
    .from(k)
    .where(
      and(
        eq(k.companyId, auth.company.id),
        eq(k.userId, auth.user.id),
        sql`((${k.isGroup} = 0 and ${k.deviceId} = ${deviceId}) or (${k.isGroup} = 1 and ${k.groupId} in (select ${m.groupId} from ${m} where ${m.deviceId} = ${deviceId})))`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Mounted at /api/user (outside the admin base), as the spec lists them. */
export const auditEndpoints = [
  endpoint({
    method: "POST",
    path: "/createActivityLog",
    tag: "Audit",
    summary:
      "Writes an audit entry about the caller: 'User Logs Out'; 'Unlocked With App' (needs an e-key to device_id), 'App Access Denied' (device_id); 'Sentinel Unlock'/'Sentinel Lock' (sentinel users, device_id). Other activities are the server's own (403).",
    auth: "token",
    permission: "signed-in",
    body: auditBody,
    async handler({ db, auth, body, now }) {
      const report = await reportOf(db, body.activity_description);
      await assertInCompany(db, auth.company.id, schema.devices, body.device_id);
      await assertInCompany(db, auth.company.id, schema.deviceGroups, body.device_group_id);
      if (report.device && body.device_id == null) throw new ServiceError(400, "device_id is required for this activity");
      if (report.sentinel && !(auth.user.isSentinel || auth.user.isSuperAdmin)) throw new ServiceError(403, "Only sentinel users can report this activity");
      if (report.key && !(await holdsKey(db, auth, body.device_id!))) throw new ServiceError(403, "You do not hold an eKey for this device");
      await activityInsert(db, {
        companyId: auth.company.id,
        name: body.activity_description,
        operationType: report.operation,
        createdByUserId: auth.user.id,
        targetUserId: auth.user.id,
        targetDeviceId: report.device ? body.device_id : null,
        targetDeviceGroupId: report.device ? body.device_group_id : null,
        summary: body.summary,
        at: now,
      });
      return { message: "Activity recorded" };
    },
  }),
  endpoint({
    method: "POST",
    path: "/createActivityLogWithoutLogin",
    tag: "Audit",
    summary:
      "Records the sign-out of a session that already ended (idle, lifetime): activity_description 'User Logs Out' only; uid is the token the client held for that session, userName and companyId its user's. Recorded once per session, with the server's own text (summary and operation_type are ignored); a session that did not exist, ended with a sign-out already, or belongs to someone else answers 400 'The provided user is invalid'. Rate-limited (429).",
    auth: "public",
    body: auditBody.extend({
      userName: z.string().trim().min(1).max(254),
      companyId: companyCode,
      uid: z.string({ required_error: "uid is required" }).trim().min(1, "uid is required").max(200),
    }),
    async handler({ db, body, now, request }) {
      if (!ANONYMOUS_ACTIVITIES.has(body.activity_description)) throw new ServiceError(403, "This activity needs a signed-in user");
      if (await overRateLimit(db, `anonlog:ip:${clientIp(request)}`, ANONYMOUS_LIMIT.perClient, THROTTLE.windowMs, now)) {
        throw new ServiceError(429, "Too many reports. Try again later.");
      }
      const e = schema.endedSessions;
      const u = schema.users;
      const [ended] = await db
        .select({ sessionId: e.id, userId: u.id, companyId: u.companyId, displayName: u.displayName })
        .from(e)
        .innerJoin(u, eq(u.id, e.userId))
        .innerJoin(schema.companies, eq(schema.companies.id, u.companyId))
        .where(and(eq(e.id, await sha256Hex(body.uid)), eq(schema.companies.code, body.companyId), eq(u.email, body.userName.toLowerCase()), isNull(u.deletedAt)))
        .limit(1);
      if (!ended) throw new ServiceError(400, "The provided user is invalid");
      await recordSignOut(db, ended, "ended", now);
      return { message: "Activity recorded" };
    },
  }),
];
