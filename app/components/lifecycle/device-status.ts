import type { TFunction } from "i18next";
import { formatCalendarDate } from "~/utils/format";

/**
 * A device's state as people read it (spec part 2 §3): an unconfigured device whose start date lies
 * ahead "will be activated on {date}", the date written as the reader's language writes it. Dates are
 * calendar days, compared as YYYY-MM-DD strings.
 */
export function deviceStatusText(t: TFunction, status: string, startDate: string | null | undefined, today: string, language: string): string {
  if (status === "unconfigured" && startDate && startDate > today) return t("lifecycle:willActivate", { date: formatCalendarDate(startDate, language) });
  return t(`lifecycle:status.${status}`);
}
