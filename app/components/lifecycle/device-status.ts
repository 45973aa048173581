import type { TFunction } from "i18next";
import { formatDate } from "~/utils/format";

/**
 * A device's state as people read it (spec part 2 §3): an unconfigured device whose start date lies
 * ahead "will be activated on {date}", the date in the reader's `language`. Dates are calendar days, compared as YYYY-MM-DD strings.
 */
export function deviceStatusText(t: TFunction, status: string, startDate: string | null | undefined, today: string, language: string): string {
  if (status === "unconfigured" && startDate && startDate > today) return t("lifecycle:willActivate", { date: formatDate(Date.parse(`${startDate}T12:00:00Z`), "UTC", language) });
  return t(`lifecycle:status.${status}`);
}
