import { localDay } from "./format";

/**
 * The date in a company's zone as YYYY-MM-DD (decisions 0057, 0067): what "not in the past" compares
 * with (a transfer's shipping date, an invoice's due date), an invoice's overdue state and number year,
 * and the day a device starts from, so a company west or east of UTC gets its own day.
 */
export const todayOf = (now: number, zone: string) => localDay(now, zone);
