/**
 * Door alarms (decision 0076): the acknowledge form and the list's filters. Messages are the console's
 * English texts, translated in the `alarms` namespace.
 */
import { z } from "zod";
import { filterKeys, parseUrlFilters, type UrlFilters } from "./url-filters";

export const ALARM_MSG = {
  acknowledged: "Alarm acknowledged",
  notFound: "Alarm not found",
  notActive: "This alarm is no longer active",
  noteRequired: "Write a note about what was found",
  noteTooLong: "The note can have at most 500 characters",
} as const;

export const ALARM_KINDS = ["heldOpen", "forced"] as const;
export const ALARM_STATES = ["active", "acknowledged", "cleared"] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];
export type AlarmState = (typeof ALARM_STATES)[number];

export const NOTE_MAX = 500;

/** Acknowledging an active alarm: who is the caller, what they found is the note. */
export const acknowledgeAlarmSchema = z.object({
  id: z.coerce.number({ invalid_type_error: ALARM_MSG.notFound }).int(ALARM_MSG.notFound).positive(ALARM_MSG.notFound),
  note: z.string({ required_error: ALARM_MSG.noteRequired, invalid_type_error: ALARM_MSG.noteRequired }).trim().min(1, ALARM_MSG.noteRequired).max(NOTE_MAX, ALARM_MSG.noteTooLong),
});
export type AcknowledgeAlarmInput = z.output<typeof acknowledgeAlarmSchema>;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The list's filters as URL params: lenient, a value that does not parse is ignored. `from`/`to` are days in the company's zone. */
export const alarmFilterFields = { state: z.enum(ALARM_STATES), kind: z.enum(ALARM_KINDS), door: id, from: isoDay, to: isoDay };
export const ALARM_FILTER_KEYS = filterKeys(alarmFilterFields);
export type AlarmFilters = UrlFilters<typeof alarmFilterFields>;
export const parseAlarmFilters = (params: URLSearchParams): AlarmFilters => parseUrlFilters(alarmFilterFields, params);
