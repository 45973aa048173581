/**
 * What the phone's two sign-in screens (password, then the code when the company requires it) share:
 * the fields the phone adds to what the person types, the session it keeps, and how a refusal reads.
 */
import type { TFunction } from "i18next";
import { translateMessage } from "~/i18n/messages";
import { PhoneApiError, type SignedIn } from "./phone-api";
import { installationId, phoneStore, type CodeStep, type PhoneSession } from "./phone-store";

/** The app's version, checked by the console against its minimum ('App update required, check the store'). */
export const APP_VERSION = "1.0.0";

/** The phone's installation id, the app version and the language, sent with each sign-in call. */
export function phoneFields(language: string) {
  return { installationId: installationId(), appVersion: APP_VERSION, language: language.startsWith("es") ? "es" : "en" } as const;
}

/** Keeps the signed-in session on the phone; its keys and offline credentials are fetched from it next. */
export function keepSession(r: SignedIn, who: { companyId: string; userName: string }): PhoneSession {
  const session = { token: r.token, userName: who.userName, companyId: who.companyId, displayName: r.payload.dispay_name, settings: r.payload.settings };
  phoneStore.setSession(session);
  return session;
}

/** The code step a 402 opens: the code went by the channel the console names (the user's choice, or mail when a text could not go). */
export function codeStepOf(e: PhoneApiError, who: { companyId: string; userName: string }): CodeStep {
  return { ...who, email: String(e.payload?.e_mail ?? ""), phone: String(e.payload?.phoneNumber ?? ""), channel: e.payload?.channel === "text" ? "text" : "email" };
}

/**
 * A refusal in the reader's language: the console's message, translated; the throttles' messages name
 * a wait, so they are told from their error code and figure.
 */
export function refusalText(t: TFunction, e: unknown): string {
  if (!(e instanceof PhoneApiError)) return t("offlineSignIn");
  if (e.code === "throttled") return t("throttled", { count: Number(e.payload?.minutes ?? 1) });
  if (e.code === "account-slowed") return t("accountSlowed", { count: Number(e.payload?.seconds ?? 1) });
  return translateMessage(t, e.message, "mobile");
}
