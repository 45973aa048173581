import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import type { ServiceError } from "./errors.server";

/**
 * The text a page shows for a refusal. Fixed spec messages stay in English here (the page translates
 * them by their text); the throttling messages carry a number, so they are translated now.
 */
export async function pageMessage(request: Request, e: ServiceError): Promise<string> {
  const code = e.details.errorCode;
  if (code !== "throttled" && code !== "account-slowed") return e.message;
  const payload = (e.details.payload ?? {}) as { minutes?: number; seconds?: number };
  const t = await getFixedT(await getLanguage(request), "auth");
  if (code === "account-slowed") return t("accountSlowed", { count: payload.seconds ?? 1 });
  return t("throttled", { count: payload.minutes ?? 15 });
}
