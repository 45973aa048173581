/** Epoch milliseconds, an ISO-8601 instant with `Z` or an offset, or a Date. */
export type Instant = number | string | Date;

/** Seven booleans, Monday first. */
export type Days = [boolean, boolean, boolean, boolean, boolean, boolean, boolean];

/** One date of a holiday calendar. Without times the whole day is a holiday; with times the doors stay
 *  open (or the key works) only during `[openTime, closeTime)`: `{closeTime: "14:00"}` closes at 14:00. */
export interface HolidayDate {
  date: string;
  name?: string | null;
  openTime?: string | null;
  closeTime?: string | null;
}

/** How a window treats holidays (decision 0077); absent fields behave as before holidays existed.
 *  `closed`: "not on holidays", the window keeps only its hours inside a holiday's open hours.
 *  `holidayHours`: a holiday's open hours replace the window's hours, on the window's valid days. */
export interface HolidayFields {
  onHolidays?: "ignore" | "closed" | "holidayHours" | null;
  holidays?: HolidayDate[] | null;
}

export interface EKeyWindow extends HolidayFields {
  kind: "ekey";
  access: "full" | "custom" | "oneTime";
  tz: string;
  /** `YYYY-MM-DD`; null or absent: no lower bound. */
  startDate?: string | null;
  /** `YYYY-MM-DD`, inclusive; null: never ends. */
  endDate?: string | null;
  days?: Days;
  allDay?: boolean;
  /** `HH:mm`; when `endTime < startTime` the occurrence runs overnight. */
  startTime?: string | null;
  endTime?: string | null;
  /** Required for `oneTime`: a spent key is never inside. */
  used?: boolean;
}

export interface GroupWindow extends HolidayFields {
  kind: "group";
  tz: string;
  days: Days;
  allDay: boolean;
  startTime?: string | null;
  endTime?: string | null;
}

export interface AlertWindow extends HolidayFields {
  kind: "alert";
  schedule: "any" | "custom";
  tz: string;
  startDate?: string | null;
  endDate?: string | null;
  days?: Days;
  allDay?: boolean;
  startTime?: string | null;
  endTime?: string | null;
}

export interface DayRow {
  /** false: no scheduled opening. true with empty times: the whole day. */
  openWholeDay: boolean;
  openTime?: string | null;
  closeTime?: string | null;
}

export interface ScheduledOpenWindow extends HolidayFields {
  kind: "scheduledOpen";
  tz: string;
  /** First person in: stay locked until the first authorized entry of the day. */
  fpi: boolean;
  firstEntryAt?: number | string | null;
  /** Seven rows, Monday first. */
  week: DayRow[];
  exceptions?: (DayRow & { date: string })[];
}

export type AccessWindow = EKeyWindow | GroupWindow | AlertWindow | ScheduledOpenWindow;

/** A validation problem. `code` is stable (`<field>.<problem>`, e.g. `endDate.beforeStart`). */
export interface ValidationError {
  code: string;
  /** Path of the field, e.g. `week[2].closeTime`; empty for the whole input. */
  field: string;
  /** English sentence naming the values involved. */
  message: string;
}

export declare class CoreError extends Error {
  /** Code of the first problem. */
  code: string;
  field: string;
  errors: ValidationError[];
}

/** `[startMs, endMs)`, half-open, UTC epoch milliseconds. */
export type Interval = [number, number];

export interface Key {
  id: string | number;
  label: string;
  window: AccessWindow;
}

export interface Decision {
  allowed: boolean;
  /** The key that allowed (first open key in the order given), or, when denied, the key the reason is about. */
  key: { id: string | number; label: string } | null;
  /** e.g. "outside Mon–Fri 08:00–17:30 Europe/Berlin; next opens Mon 08:00". */
  reason: string;
  /** When allowed: when that key's opening ends (null: not within five years). */
  until: number | null;
  /** When denied: when the soonest key opens (null: none within five years). */
  nextOpen: number | null;
}

export interface CompiledWindow {
  readonly window: AccessWindow;
  isOpen(at: Instant): boolean;
  /** Evaluates many instants at once: `out[i]` is 1 (open), 0 (closed) or 2 (invalid instant). */
  evaluate(times: Float64Array, out?: Uint8Array): Uint8Array;
  occurrences(from: Instant, to: Instant): Interval[];
  nextChange(at: Instant): NextChange;
  /** Releases the module-side copy now (otherwise on garbage collection). */
  free(): void;
}

export interface NextChange {
  open: boolean;
  /** Next instant at which `isOpen` flips, within five years. */
  nextChange: number | null;
  /** Next instant at which the window opens (after the current opening when open). */
  nextOpen: number | null;
}

export interface Core {
  /** Throws CoreError for an invalid window or instant. */
  isOpen(window: AccessWindow, at: Instant): boolean;
  /** `{open, local}` as the CLI prints it; `local` is RFC 3339 in the window's zone. */
  evaluate(window: AccessWindow, at: Instant): { open: boolean; local: string };
  /** Merged UTC intervals inside the window within `[from, to)`, clipped to it (at most 10,000 days). */
  occurrences(window: AccessWindow, from: Instant, to: Instant): Interval[];
  /** Every problem of the window; empty when valid. */
  validate(window: AccessWindow | string): ValidationError[];
  /** Validates once for fast repeated evaluation. Throws CoreError when invalid. */
  compile(window: AccessWindow | string): CompiledWindow;
  decide(keys: Key[], at: Instant, options?: { lang?: "en" | "es" }): Decision;
  nextChange(window: AccessWindow, at: Instant): NextChange;
  nextOpen(window: AccessWindow, at: Instant): number | null;
  /** e.g. `2026-03-08T03:30:00-04:00`. */
  formatLocal(at: Instant, tz: string): string;
  /** UTC offset in seconds. */
  offsetAt(at: Instant, tz: string): number;
  /** IANA release of the embedded data, e.g. `2025b`. */
  tzdataVersion(): string;
  /** Canonical zones, plus backward-compatible links unless `links: false`; sorted. */
  zones(options?: { links?: boolean }): string[];
  /** Raw JSON operation (what the CLI uses): answers `{"error":…}` instead of throwing. */
  callJson(op: "eval" | "occurrences" | "validate" | "decide" | "nextChange" | "zones" | "version" | "local", json: string): string;
}

export declare function createCore(moduleOrBytes: WebAssembly.Module | ArrayBuffer | ArrayBufferView): Core;
export declare function loadCore(
  source: string | URL | Response | Promise<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module,
): Promise<Core>;
