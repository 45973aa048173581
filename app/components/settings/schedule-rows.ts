import type { SubmissionResult } from "@conform-to/react";

/** A weekday's or an exception's opening as the form edits it. */
export type Row = { openWholeDay: boolean; openTime: string; closeTime: string };
export type ExceptionRow = Row & { key: number; exceptionDate: string };

/** Unchecking a day or an exception clears its times (docs/ARCHITECTURE.md §7.2). */
export const clear = <T extends Row>(r: T): T => (r.openWholeDay ? r : { ...r, openTime: "", closeTime: "" });

/** The post as plain form fields in Conform's names (`schedule_opens[2].closeTime`), flags as '1'/'0'. */
export function formFields(wire: {
  fpi: boolean;
  schedule_opens: Record<string, unknown>[];
  schedule_exceptions: Record<string, unknown>[];
  on_holidays: string;
  holiday_calendar_id: number | null;
}) {
  const out: Record<string, string> = {
    fpi: wire.fpi ? "1" : "0",
    on_holidays: wire.on_holidays,
    holiday_calendar_id: wire.holiday_calendar_id == null ? "" : String(wire.holiday_calendar_id),
  };
  for (const list of ["schedule_opens", "schedule_exceptions"] as const) {
    wire[list].forEach((row, i) => {
      for (const [k, v] of Object.entries(row)) out[`${list}[${i}].${k}`] = typeof v === "boolean" ? (v ? "1" : "0") : String(v);
    });
  }
  return out;
}

/** Conform's reply keyed by the form's own error keys (`schedule_opens.2.closeTime`, `_` for the whole form). */
export function replyErrors(result?: SubmissionResult<string[]>) {
  const out: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(result?.error ?? {})) if (messages?.length) out[name ? name.replace(/\[(\d+)\]/g, ".$1") : "_"] = messages;
  return out;
}
