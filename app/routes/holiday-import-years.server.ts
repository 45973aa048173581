import type { Core } from "~core";
import { FIRST_IMPORT_YEAR, LAST_IMPORT_YEAR } from "~/schemas/holidays";

/** The years the public-holiday data covers, and the company's current year (clamped) to preselect. */
export function importYears(core: Pick<Core, "formatLocal">, tz: string, now: number) {
  const years = Array.from({ length: LAST_IMPORT_YEAR - FIRST_IMPORT_YEAR + 1 }, (_, i) => FIRST_IMPORT_YEAR + i);
  const current = Number(core.formatLocal(now, tz).slice(0, 4));
  return { years, year: Math.min(LAST_IMPORT_YEAR, Math.max(FIRST_IMPORT_YEAR, current)) };
}
