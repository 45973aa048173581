/**
 * Invites (decision 0055): the mail a new account gets, carrying a one-time set-password link that is
 * valid for a week and signs the person in where they will work: the console for a user with console
 * rights, the phone app (`/m`) for everyone else. Written in the company's language. The same mail for
 * a new company's first administrator, a created user, "Resend invite" and the bulk "Send invite".
 */
import type { SQL } from "drizzle-orm";
import { passwordLink, type LandsOn } from "~/services/auth.server";
import { schema, type Db } from "~/utils/db.server";

type BatchItem = Parameters<Db["batch"]>[0][number];

/** The account invited; `id`/`companyId` may be subqueries when it is created in the same batch. */
export type Invitee = { id: number | SQL; companyId: number | SQL; email: string; isSentinel: boolean; isSuperAdmin: boolean };
export type InvitingCompany = { name: string; code: string; language: "en" | "es" };

export const landsOnFor = (user: { isSentinel: boolean; isSuperAdmin: boolean }): LandsOn => (user.isSentinel || user.isSuperAdmin ? "console" : "phone");

function inviteText(company: InvitingCompany, email: string, landsOn: LandsOn, url: string, origin: string) {
  const who = { en: `Company ID: ${company.code}, user name: ${email}.`, es: `ID de empresa: ${company.code}, usuario: ${email}.` }[company.language];
  if (landsOn === "console") {
    return {
      en: {
        subject: `You are invited to the ${company.name} console`,
        body: `You can now manage ${company.name}'s doors and people in the Keyless Access console. ${who} Choose your password within 7 days with this link; you will then be signed in: ${url}`,
      },
      es: {
        subject: `Invitación a la consola de ${company.name}`,
        body: `Ya puede gestionar las puertas y las personas de ${company.name} en la consola de Keyless Access. ${who} Elija su contraseña en los próximos 7 días con este enlace; después entrará directamente: ${url}`,
      },
    }[company.language];
  }
  return {
    en: {
      subject: `Your key to ${company.name}'s doors`,
      body: `${company.name} gave you a key in the Keyless Access phone app. ${who} Open this link on your phone within 7 days to choose your password; the app (${origin}/m) then opens signed in: ${url}`,
    },
    es: {
      subject: `Su llave para las puertas de ${company.name}`,
      body: `${company.name} le ha dado una llave en la aplicación Keyless Access para el móvil. ${who} Abra este enlace en su móvil en los próximos 7 días para elegir su contraseña; la aplicación (${origin}/m) se abrirá con su sesión iniciada: ${url}`,
    },
  }[company.language];
}

/** The link and the mail of one invite, for the caller's batch (the caller adds its audit entry). */
export async function inviteStatements(db: Db, user: Invitee, company: InvitingCompany, ctx: { origin: string; now: number }): Promise<BatchItem[]> {
  const landsOn = landsOnFor(user);
  const link = await passwordLink(db, user, { purpose: "invite", landsOn, language: company.language }, ctx);
  const mail = inviteText(company, user.email, landsOn, link.url, ctx.origin);
  return [link.statement, db.insert(schema.mailOutbox).values({ companyId: user.companyId, toAddress: user.email, subject: mail.subject, body: mail.body, createdAt: ctx.now })];
}
