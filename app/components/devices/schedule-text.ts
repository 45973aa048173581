import type { TFunction } from "i18next";

type DayRule = { openWholeDay: boolean; openTime: string; closeTime: string };

/** A scheduled-open day or exception as text: closed, open all day, or its hours. */
export function scheduleLabel(t: TFunction, rule: DayRule | undefined): string {
  if (!rule?.openWholeDay) return t("schedule.closed");
  return rule.openTime && rule.closeTime ? t("schedule.hours", { open: rule.openTime, close: rule.closeTime }) : t("schedule.allDay");
}
