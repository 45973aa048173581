/**
 * Mailer configuration (spec part 2 §2 /companyMailerSetting, §3, §7 getCompanyMailerConfig and
 * modifyCompanyMailerConfig). A company admin (users module) manages their own company's mailer;
 * the root company (company module) manages the platform default (no company id, or its own) and
 * any company in its view. The password is sealed with the MAILER_SECRET Worker secret and never
 * returned. A test mail goes straight over SMTP and reports the stage that failed.
 */
import { eq, isNull } from "drizzle-orm";
import { mailerFormSchema } from "~/schemas/mailer";
import { findVisibleCompany } from "~/services/companies.server";
import { buildMessage, InvalidAddressError, parseMailbox } from "~/services/mail/message.server";
import { AtRestKeyMissing, openSecret, sealSecret, type AtRestEnv } from "~/utils/at-rest.server";
import { sendMail, SmtpError } from "~/services/mail/smtp.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";

const mc = schema.mailerConfigs;
const MODULES = ["company", "users"] as const;

export const MAILER_MSG = {
  saved: "Mailer configuration saved successfully",
  testSent: "Test mail sent",
  testFailed: "Test mail failed",
  notConfigured: "No mailer is configured yet",
  notFound: "The provided company code is invalid",
} as const;

/** Whose mailer: null is the platform default. */
type Target = { companyId: number | null; label: string };

export async function resolveTarget(db: Db, auth: Auth, companyId: number | null | undefined): Promise<Target> {
  const id = companyId == null ? null : Number(companyId);
  if (auth.company.type === "root" && auth.permissions.company) {
    if (id == null || id === auth.company.id) return { companyId: null, label: "platform default" };
    const company = await findVisibleCompany(db, auth, id);
    return { companyId: company.id, label: `${company.name} (${company.code})` };
  }
  if (id != null && id !== auth.company.id) notFound(MAILER_MSG.notFound);
  return { companyId: auth.company.id, label: `${auth.company.name} (${auth.company.code})` };
}

const rowOf = (db: Db, t: Target) => db.query.mailerConfigs.findFirst({ where: t.companyId == null ? isNull(mc.companyId) : eq(mc.companyId, t.companyId) });

export type MailerConfig = {
  id: number | null;
  company_id: number | null;
  host_name: string;
  port_name: number | null;
  user_name: string;
  user_password: "";
  has_password: boolean;
  target: string;
};

export async function getMailerConfig(db: Db, auth: Auth, companyId?: number | null): Promise<MailerConfig> {
  assertCan(auth, MODULES);
  const t = await resolveTarget(db, auth, companyId);
  const row = await rowOf(db, t);
  return {
    id: row?.id ?? null,
    company_id: t.companyId,
    host_name: row?.hostName ?? "",
    port_name: row?.port ?? null,
    user_name: row?.userName ?? "",
    user_password: "",
    has_password: Boolean(row?.userPassword),
    target: t.label,
  };
}

export async function modifyMailerConfig(db: Db, env: AtRestEnv, auth: Auth, input: { company_id?: unknown } & Record<string, unknown>, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULES, "modify");
  const t = await resolveTarget(db, auth, input.company_id ? Number(input.company_id) : null);
  const r = mailerFormSchema.safeParse(input);
  if (!r.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of r.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
    throw new ServiceError(400, r.error.issues[0].message, { fieldErrors });
  }
  let sealed: string;
  try {
    sealed = await sealSecret(env, r.data.user_password);
  } catch (e) {
    if (e instanceof AtRestKeyMissing) throw new ServiceError(422, e.message);
    throw e;
  }
  const values = { hostName: r.data.host_name, port: r.data.port_name, userName: r.data.user_name, userPassword: sealed, updatedAt: now };
  const existing = await rowOf(db, t);
  await db.batch([
    existing ? db.update(mc).set(values).where(eq(mc.id, existing.id)) : db.insert(mc).values({ ...values, companyId: t.companyId }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Mailer Config Updated",
      createdByUserId: auth.user.id,
      summary: `${t.label}: ${r.data.host_name}:${r.data.port_name}`,
      at: now,
    }),
  ]);
  return { message: MAILER_MSG.saved };
}

/** Sends a test mail to `to` (default: the caller) with the saved mailer; a failure names its SMTP stage. */
export async function sendTestMail(
  db: Db,
  env: AtRestEnv & { MAIL_FROM?: string },
  auth: Auth,
  input: { company_id?: number | null; to?: string },
  now: number,
): Promise<{ message: string }> {
  assertCan(auth, MODULES, "modify");
  const t = await resolveTarget(db, auth, input.company_id ?? null);
  const row = await rowOf(db, t);
  if (!row) throw new ServiceError(422, MAILER_MSG.notConfigured);
  const to = input.to ?? auth.user.email;
  const from = parseMailbox(env.MAIL_FROM ?? "Keyless Access <no-reply@keyless.example>");
  const domain = from.address.split("@")[1] ?? "localhost";
  try {
    const data = buildMessage({
      from,
      to,
      subject: "Test mail from the keyless-access console",
      body: `This is a test of the mailer ${row.hostName}:${row.port} for ${t.label}.`,
      date: new Date(now),
      messageId: `test-${now}@${domain}`,
    });
    await sendMail(
      { host: row.hostName, port: row.port, user: row.userName, password: await openSecret(env, row.userPassword), heloName: domain, timeoutMs: 10_000 },
      { from: from.address, to, data },
    );
  } catch (e) {
    if (e instanceof SmtpError) throw new ServiceError(422, `${MAILER_MSG.testFailed}: ${e.message}`, { errorCode: "smtp" });
    if (e instanceof InvalidAddressError) throw new ServiceError(400, "Email invalid");
    throw e;
  }
  await db.batch([activityInsert(db, { companyId: auth.company.id, name: "Mailer Test Sent", createdByUserId: auth.user.id, summary: `${t.label} → ${to}`, at: now })]);
  return { message: MAILER_MSG.testSent };
}
