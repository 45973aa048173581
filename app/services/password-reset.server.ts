/**
 * A forgotten password, as the company's password reset security says (decision 0062):
 * - 'email': a set-password link by mail;
 * - 'text': the link by mail and a code by text message to the user's phone; the link needs the code;
 * - 'admin': the request waits on the user's page until a super admin approves it (which mails the link);
 *   the person is shown the company's contact phone.
 * Suspicious requests run the company's secondary action (nothing, alert the super admins, or alert
 * them and flag the account). Mails and texts are written in the company's language.
 */
import { and, eq, isNull, lt, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { forgotPasswordSchema, webResetPasswordSchema } from "~/schemas/auth";
import { activityInsert } from "~/utils/activity-insert.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { assertNewPassword, AUTH_MSG, findAccount, passwordLink, resetCodeHash, setPassword, settingsOf, usableLink, type Account, type LandsOn } from "./auth.server";
import type { SmsSender } from "./sms/sender.server";
import { sendText } from "./sms/texts.server";
import { overRateLimit, THROTTLE } from "./throttle.server";

/** Reset requests: at most this many per account (more are suspicious), and per client, in the throttle window. */
export const RESET_MAIL_LIMIT = { perAccount: 3, perClient: 10 } as const;
export const RESET_THROTTLED = "Too many reset requests. Try again later.";
/** Wrong codes a text-mode link takes before it is spent (and the reset counts as suspicious). */
export const RESET_CODE_MAX_ATTEMPTS = 5;

export const RESET_MSG = {
  email: "A reset link has been sent to your email",
  text: "A reset link has been sent to your email and a code to your phone",
  admin: "Your request has been sent to your administrator for approval",
} as const;

type BatchItem = Parameters<Db["batch"]>[0][number];
type Language = "en" | "es";
type ResetMode = keyof typeof RESET_MSG;
/** Why a reset counts as suspicious (decision 0062). */
export type SuspicionReason = "too-many-requests" | "deactivated-account" | "code-attempts";

const languageOf = async (db: Db, companyId: number): Promise<Language> => (await settingsOf(db, companyId))?.language ?? "en";

const RESET_MAIL = {
  en: (url: string, withCode: boolean) => ({
    subject: "Reset your password",
    body: `Open this link within an hour to choose a new password: ${url}${withCode ? " You will also need the code we sent to your phone by text message." : ""}`,
  }),
  es: (url: string, withCode: boolean) => ({
    subject: "Restablezca su contraseña",
    body: `Abra este enlace en la próxima hora para elegir una contraseña nueva: ${url}${withCode ? " También necesitará el código que le hemos enviado por SMS a su teléfono." : ""}`,
  }),
} as const;

const RESET_TEXT = {
  en: (code: string) => `Keyless Access: your password reset code is ${code}. It is valid for an hour. If you did not ask for it, tell your administrator.`,
  es: (code: string) => `Keyless Access: su código para restablecer la contraseña es ${code}. Vale durante una hora. Si no lo ha pedido, avise a su administrador.`,
} as const;

const SUSPICION_TEXT: Record<SuspicionReason, Record<Language, string>> = {
  "too-many-requests": {
    en: `More than ${RESET_MAIL_LIMIT.perAccount} password resets were asked for within ${THROTTLE.windowMs / 60_000} minutes.`,
    es: `Se han pedido más de ${RESET_MAIL_LIMIT.perAccount} restablecimientos de contraseña en ${THROTTLE.windowMs / 60_000} minutos.`,
  },
  "deactivated-account": { en: "A password reset was asked for a deactivated account.", es: "Se ha pedido restablecer la contraseña de una cuenta desactivada." },
  "code-attempts": {
    en: `A reset link was used with ${RESET_CODE_MAX_ATTEMPTS} wrong text-message codes.`,
    es: `Se ha usado un enlace de restablecimiento con ${RESET_CODE_MAX_ATTEMPTS} códigos SMS erróneos.`,
  },
};

const ALERT_MAIL = {
  en: (name: string, why: string, locked: boolean) => ({
    subject: `Suspicious password reset: ${name}`,
    body: `${why} ${locked ? `${name}'s account has been locked: approve it on the user's page in the console once you have checked with its owner.` : `Check with ${name} that it was them.`}`,
  }),
  es: (name: string, why: string, locked: boolean) => ({
    subject: `Restablecimiento de contraseña sospechoso: ${name}`,
    body: `${why} ${locked ? `La cuenta de ${name} se ha bloqueado: apruébela en la página del usuario en la consola cuando lo haya comprobado con su titular.` : `Compruebe con ${name} que fue esa persona.`}`,
  }),
} as const;

/** A six-digit code from the platform's random source. */
const sixDigits = () => String(crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000).padStart(6, "0");

/**
 * Queues a reset link in the company's language; `alongside` (e.g. the caller's audit entry) lands in
 * the same batch. With `code` the link also needs the texted code (mode 'text').
 */
export async function queueResetLink(
  db: Db,
  user: { id: number; companyId: number; email: string },
  ctx: { origin: string; now: number; landsOn?: LandsOn; code?: string },
  alongside: BatchItem[] = [],
) {
  const language = await languageOf(db, user.companyId);
  const link = await passwordLink(db, user, { purpose: "reset", landsOn: ctx.landsOn ?? "console", code: ctx.code }, ctx);
  const mail = RESET_MAIL[language](link.url, Boolean(ctx.code));
  await db.batch([
    link.statement,
    db.insert(schema.mailOutbox).values({ companyId: user.companyId, toAddress: user.email, subject: mail.subject, body: mail.body, createdAt: ctx.now }),
    ...alongside,
  ]);
}

export type ForgotContext = { origin: string; ip: string; now: number; sms: SmsSender };
export type ForgotAnswer = { message: string; payload?: { contactPhone: string } };

/**
 * A forgotten password, in the company's mode. An unknown company and an unknown e-mail get the same
 * 400 (spec: 'Invalid Company ID or Email') through the same single query. A known account is always
 * answered its mode's message, whether or not anything was sent (limits, a deactivated account).
 */
export async function webForgotPassword(db: Db, input: z.infer<typeof forgotPasswordSchema>, ctx: ForgotContext): Promise<ForgotAnswer> {
  // Per client: answered openly (it says nothing about any account).
  if (await overRateLimit(db, `reset:ip:${ctx.ip}`, RESET_MAIL_LIMIT.perClient, THROTTLE.windowMs, ctx.now)) {
    throw new ServiceError(429, RESET_THROTTLED, { errorCode: "reset-throttled" });
  }
  const account = await findAccount(db, input.companyId, input.userName);
  if (!account) throw new ServiceError(400, AUTH_MSG.badCompanyOrEmail, { errorCode: "bad-company-or-email" });
  const settings = await settingsOf(db, account.company.id);
  const mode: ResetMode = settings?.passwordResetSecurity ?? "email";
  const answer: ForgotAnswer = mode === "admin" ? { message: RESET_MSG.admin, payload: { contactPhone: settings?.passwordResetPhone ?? "" } } : { message: RESET_MSG[mode] };
  // A flagged account waits for its approval; a reset would not open it.
  if (account.user.isFlagged) return answer;
  if (account.user.isInactive) {
    await suspiciousReset(db, account, "deactivated-account", ctx.now);
    return answer;
  }
  // Per account: further requests are answered the same way but send nothing (no mail or text bombing).
  if (await overRateLimit(db, `reset:user:${account.user.id}`, RESET_MAIL_LIMIT.perAccount, THROTTLE.windowMs, ctx.now)) {
    await suspiciousReset(db, account, "too-many-requests", ctx.now);
    return answer;
  }
  const landsOn = input.landsOn;
  if (mode === "email") await queueResetLink(db, account.user, { ...ctx, landsOn });
  if (mode === "text") {
    const code = sixDigits();
    const language = settings?.language ?? "en";
    const text = { companyId: account.company.id, userId: account.user.id, to: account.user.phoneNumber, body: RESET_TEXT[language](code), purpose: "password reset code" };
    // Without the code the mailed link cannot reset, so nothing is mailed unless the text went out.
    if (await sendText(db, ctx.sms, text, ctx.now)) await queueResetLink(db, account.user, { ...ctx, landsOn, code });
  }
  if (mode === "admin") {
    await db.batch([
      db.update(schema.users).set({ passwordResetRequestedAt: ctx.now }).where(eq(schema.users.id, account.user.id)),
      activityInsert(db, {
        companyId: account.company.id,
        name: "Password Reset Requested",
        createdByUserId: account.user.id,
        targetUserId: account.user.id,
        summary: account.user.email,
        at: ctx.now,
      }),
    ]);
  }
  return answer;
}

/**
 * Runs the company's secondary action on a suspicious reset, at most once per account and throttle
 * window: 'nothing' only records it; 'alert' also mails the company's other super admins; 'flag' also
 * flags the account (the sign-in refusal, the user page's banner and its approval, as a manual flag).
 */
export async function suspiciousReset(db: Db, { user, company }: Account, reason: SuspicionReason, now: number): Promise<void> {
  if (await overRateLimit(db, `reset:suspicious:${user.id}`, 1, THROTTLE.windowMs, now)) return;
  const settings = await settingsOf(db, company.id);
  const action = settings?.passwordResetSecondaryAction ?? "nothing";
  const language = settings?.language ?? "en";
  const lock = action === "flag" && !user.isFlagged;
  const admins =
    action === "nothing"
      ? []
      : await db
          .select({ email: schema.users.email })
          .from(schema.users)
          .where(
            and(
              eq(schema.users.companyId, company.id),
              eq(schema.users.isSuperAdmin, true),
              eq(schema.users.isInactive, false),
              isNull(schema.users.deletedAt),
              ne(schema.users.id, user.id),
            ),
          );
  const mail = ALERT_MAIL[language](user.displayName, SUSPICION_TEXT[reason][language], lock);
  await db.batch([
    activityInsert(db, { companyId: company.id, name: "Suspicious Password Reset", targetUserId: user.id, summary: `${reason}: ${action}`, details: { reason, action }, at: now }),
    ...(lock ? [db.update(schema.users).set({ isFlagged: true, updatedAt: now }).where(eq(schema.users.id, user.id))] : []),
    ...admins.map((a) => db.insert(schema.mailOutbox).values({ companyId: company.id, toAddress: a.email, subject: mail.subject, body: mail.body, createdAt: now })),
  ]);
}

/**
 * Spends a link: in mode 'text' first its code, then sets the password (which ends every link of the
 * account) and says where to sign in. Each code tried takes one of the link's attempts before it is
 * compared, in one conditional update, so guesses sent at once count one by one; the attempt that
 * reaches the limit spends the link and is suspicious. A password the rules refuse is answered first
 * and costs no attempt.
 */
export async function webResetPassword(db: Db, input: z.infer<typeof webResetPasswordSchema>, now: number) {
  const row = await usableLink(db, input.uid, now);
  if (!row) throw new ServiceError(400, AUTH_MSG.badLink, { errorCode: "bad-link" });
  assertNewPassword(input.password, input.confirmPassword);
  if (row.link.codeHash != null) {
    const t = schema.passwordResetTokens;
    const [taken] = await db
      .update(t)
      .set({ codeAttempts: sql`${t.codeAttempts} + 1` })
      .where(and(eq(t.id, row.link.id), isNull(t.usedAt), lt(t.codeAttempts, RESET_CODE_MAX_ATTEMPTS)))
      .returning({ attempts: t.codeAttempts });
    if (!taken) throw new ServiceError(400, AUTH_MSG.badLink, { errorCode: "bad-link" });
    if (!input.code || (await resetCodeHash(row.link.id, input.code)) !== row.link.codeHash) {
      if (taken.attempts >= RESET_CODE_MAX_ATTEMPTS) {
        await db.update(t).set({ usedAt: now }).where(eq(t.id, row.link.id));
        await suspiciousReset(db, row, "code-attempts", now);
      }
      throw new ServiceError(400, AUTH_MSG.badCode, { errorCode: "bad-code", fieldErrors: { code: [AUTH_MSG.badCode] } });
    }
  }
  await setPassword(db, row.user, input.password, now, row.user.id);
  return {
    message: row.link.purpose === "invite" ? "Password set successfully" : "Password reset successfully",
    hasWebAccess: row.user.isSentinel || row.user.isSuperAdmin,
    landsOn: row.landsOn,
    signIn: { companyId: row.company.code, userName: row.user.email },
  };
}
