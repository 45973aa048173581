import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { companyCode } from "~/schemas/auth";
import { activityInsert } from "~/utils/activity-insert.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { endpoint } from "../define.server";

const auditBody = z.object({
  operation_type: z.enum(["Admin", "App", "Sentinel", "Device"]).default("Admin"),
  device_id: z.coerce.number().int().nullish(),
  device_group_id: z.coerce.number().int().nullish(),
  summary: z.string().max(500).default(""),
  activity_description: z.string({ required_error: "activity_description is required" }).min(1, "activity_description is required"),
});

/** Without a session only these entries may be written (the idle tab has already lost its token). */
const ANONYMOUS_ACTIVITIES = new Set(["User Logs Out"]);

async function assertKnownActivity(db: Db, name: string) {
  const row = await db.query.activityTypes.findFirst({ where: eq(schema.activityTypes.name, name) });
  if (!row) throw new ServiceError(400, `Unknown activity '${name}'`);
}

async function assertInCompany(db: Db, companyId: number, table: typeof schema.devices | typeof schema.deviceGroups, id: number | null | undefined) {
  if (id == null) return;
  const row = await db.select({ id: table.id }).from(table).where(and(eq(table.id, id), eq(table.companyId, companyId), isNull(table.deletedAt))).limit(1);
  if (!row[0]) throw new ServiceError(404, "This device does not belong to your company");
}

/** Mounted at /api/user (outside the admin base), as the spec lists them. */
export const auditEndpoints = [
  endpoint({
    method: "POST",
    path: "/createActivityLog",
    tag: "Audit",
    summary: "Writes an audit entry for the caller (e.g. 'User Logs Out').",
    auth: "token",
    body: auditBody,
    async handler({ db, auth, body, now }) {
      await assertKnownActivity(db, body.activity_description);
      await assertInCompany(db, auth.company.id, schema.devices, body.device_id);
      await assertInCompany(db, auth.company.id, schema.deviceGroups, body.device_group_id);
      await activityInsert(db, {
        companyId: auth.company.id,
        name: body.activity_description,
        operationType: body.operation_type,
        createdByUserId: auth.user.id,
        targetUserId: auth.user.id,
        targetDeviceId: body.device_id,
        targetDeviceGroupId: body.device_group_id,
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
    summary: "Writes a sign-out entry for a user whose session already ended.",
    auth: "public",
    body: auditBody.extend({ userName: z.string().min(1), companyId: companyCode, uid: z.coerce.number().int() }),
    async handler({ db, body, now }) {
      if (!ANONYMOUS_ACTIVITIES.has(body.activity_description)) throw new ServiceError(403, "This activity needs a signed-in user");
      const rows = await db
        .select({ id: schema.users.id, companyId: schema.users.companyId })
        .from(schema.users)
        .innerJoin(schema.companies, eq(schema.companies.id, schema.users.companyId))
        .where(and(eq(schema.users.id, body.uid), eq(schema.companies.code, body.companyId), eq(schema.users.email, body.userName.toLowerCase())))
        .limit(1);
      if (!rows[0]) throw new ServiceError(400, "The provided user is invalid");
      await activityInsert(db, { companyId: rows[0].companyId, name: body.activity_description, operationType: body.operation_type, createdByUserId: rows[0].id, targetUserId: rows[0].id, summary: body.summary, at: now });
      return { message: "Activity recorded" };
    },
  }),
];
