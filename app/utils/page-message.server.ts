import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import type { ServiceError } from "./errors.server";

/**
 * The text a page shows for a refusal. Fixed spec messages stay in English here (the page translates
 * them by their text); the throttling message carries a number, so it is translated now.
 */
export async function pageMessage(request: Request, e: ServiceError): Promise<string> {
  if (e.details.errorCode !== "throttled") return e.message;
  const minutes = (e.details.payload as { minutes?: number } | undefined)?.minutes ?? 15;
  const t = await getFixedT(await getLanguage(request), "auth");
  return t("throttled", { count: minutes });
}
