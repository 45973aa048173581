/** The name and contents of an archive view (archive-view.ts), apart from the class so the console's build can use them. */
import { dayOf, DAY_MS } from "./company-log-archive";

/**
 * What a view holds: the company's rows with `from <= activity_timestamp < to` (UTC midnights): the archived
 * days (those before the store's `hotFrom`) from R2, and what the store holds of the span. `generation`
 * and `minute` are part of its name only: a new archive state, or for a span reaching the store's hot
 * window a new minute, is a new view.
 */
export type ViewSpec = { companyId: number; from: number; to: number; hotFrom: number; generation: number; minute: number };

export const viewName = (v: ViewSpec) => `view:${v.companyId}:${v.from}:${v.to}:${v.hotFrom}:${v.generation}:${v.minute}`;

/** Whole UTC days around an instant span: what a view over it holds. */
export const daySpan = (from: number, to: number) => ({ from: dayOf(from) * DAY_MS, to: (dayOf(to - 1) + 1) * DAY_MS });
