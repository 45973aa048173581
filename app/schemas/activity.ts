/**
 * The activity log's filter payload and note form (docs/ARCHITECTURE.md §8, the activity filter payload;
 * §7.2, the activity filter and notes), shared by the pages, the service and the admin API.
 * The page carries the same names in its URL (with a 1-based `page`, like every grid).
 */
import { z } from "zod";

/** The spec's log types; 'Admin' is the operation type of console changes, so it can be filtered too. */
export const OPERATION_TYPES = ["All", "Sentinel", "App", "Device", "Admin"] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/** What a clicked Triggered By, User, Device or Device Group cell filters by (with its id). */
export const FILTER_TYPES = ["Triggered By", "User", "Device", "Device Group"] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

export const ACTIVITY_SORTS = ["date", "activity", "trigger", "triggeredBy", "user", "device", "deviceGroup"] as const;
export const DEFAULT_ACTIVITY_SORT = "-date";
/** The activity log's default page size (docs/ARCHITECTURE.md §7.3). */
export const ACTIVITY_PAGE_SIZE = 100;

export const ACTIVITY_MSG = {
  dateOrder: "The from date must not be after the to date",
  date: "Dates must be YYYY-MM-DD",
  time: "Times must be HH:mm",
  idType: "An id needs a type and a type needs an id",
  note: "Note is required",
  notFound: "Activity not found",
  noteAdded: "Note added",
  erased: "Activity erased",
  selfErase: "You cannot erase your own activity",
} as const;

const blank = (v: unknown) => (v === "" || v == null ? undefined : v);

/** Event types as catalogue names (the page's URL repeats `event`); a lone name is one type. */
const eventNames = z.preprocess(
  (v) => (typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x) => x !== "") : v),
  z.array(z.string().trim().min(1).max(100)).max(30).optional(),
);

const date = z.preprocess(
  blank,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, ACTIVITY_MSG.date)
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), ACTIVITY_MSG.date)
    .optional(),
);

/** HH:mm; the spec sends times as HH:mm:00, so trailing seconds are dropped. */
const time = z.preprocess(
  (v) => (typeof v === "string" ? blank(v.trim().replace(/^(\d{2}:\d{2}):\d{2}$/, "$1")) : blank(v)),
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, ACTIVITY_MSG.time)
    .optional(),
);

export const activityFilterSchema = z
  .object({
    filterOperationType: z.preprocess(blank, z.enum(OPERATION_TYPES).default("All")),
    filterFromDate: date,
    filterToDate: date,
    filterFromTime: time,
    filterToTime: time,
    id: z.preprocess(blank, z.coerce.number().int().positive().optional()),
    type: z.preprocess(blank, z.enum(FILTER_TYPES).optional()),
    /** An activity name from getActivityOptions: only rows of that activity (with `events`: of any of them). */
    additionalFilter: z.preprocess(blank, z.string().trim().max(100).optional()),
    /** Activity names (the catalogue's): only rows of any of them. */
    events: eventNames,
    /** A person: rows they triggered or that name them as the user. */
    person: z.preprocess(blank, z.coerce.number().int().positive().optional()),
    /** A device: rows about it. */
    door: z.preprocess(blank, z.coerce.number().int().positive().optional()),
    /** Free text: rows whose summary, person, device or group name contains it. */
    q: z.preprocess((v) => (typeof v === "string" ? blank(v.trim()) : blank(v)), z.string().max(100).optional()),
    /** A column of ACTIVITY_SORTS, "-" prefix for descending; unknown values fall back to "-date". */
    sort: z.preprocess(blank, z.string().max(20).default(DEFAULT_ACTIVITY_SORT)),
    /** 0-based, as the spec's payload. */
    page: z.preprocess(blank, z.coerce.number().int().min(0).max(1_000_000).default(0)),
    pageSize: z.preprocess(blank, z.coerce.number().int().min(1).max(ACTIVITY_PAGE_SIZE).default(ACTIVITY_PAGE_SIZE)),
    /** IANA zone the dates and times mean; the company's zone when absent. */
    tz: z.preprocess(blank, z.string().max(64).optional()),
  })
  .superRefine((v, ctx) => {
    // Either date alone is open-ended (from that day on, or up to it); either time alone runs to or from midnight.
    if (v.filterFromDate && v.filterToDate && v.filterFromDate > v.filterToDate) ctx.addIssue({ code: "custom", path: ["filterToDate"], message: ACTIVITY_MSG.dateOrder });
    if ((v.id === undefined) !== (v.type === undefined)) ctx.addIssue({ code: "custom", path: ["id"], message: ACTIVITY_MSG.idType });
  });
export type ActivityFilterInput = z.input<typeof activityFilterSchema>;
export type ActivityFilter = z.output<typeof activityFilterSchema>;

/** The details page's add-note form: the activity id and the note (the API's createActivityLogNotes calls it `note_description`). */
export const activityNoteSchema = z.object({
  id: z.coerce.number().int().positive(),
  note: z.string({ required_error: ACTIVITY_MSG.note, invalid_type_error: ACTIVITY_MSG.note }).trim().min(1, ACTIVITY_MSG.note).max(2000),
});
export type ActivityNoteInput = z.infer<typeof activityNoteSchema>;

/**
 * The filter's URL search params on /activity (page, pageSize and sort belong to the grid). `event`
 * repeats, one per event type; the dashboard's `additionalFilter` links read as one event type.
 */
export const FILTER_PARAMS = ["filterOperationType", "filterFromDate", "filterToDate", "filterFromTime", "filterToTime", "id", "type", "person", "door", "q"] as const;
export type FilterParam = (typeof FILTER_PARAMS)[number];
export type UrlFilter = Partial<Record<FilterParam, string>> & { events?: string[] };

/** docs/ARCHITECTURE.md §7.2: Remove filter is enabled when any filter is set. */
export const hasAnyFilter = (v: UrlFilter) => !!v.events?.length || FILTER_PARAMS.some((k) => (k === "filterOperationType" ? v[k] != null && v[k] !== "All" : !!v[k]));

export function filterFromSearch(search: URLSearchParams): UrlFilter {
  const out: UrlFilter = {};
  for (const key of FILTER_PARAMS) {
    const v = search.get(key)?.trim();
    if (v) out[key] = v;
  }
  const events = [...new Set([...search.getAll("event"), ...search.getAll("additionalFilter")].map((e) => e.trim()).filter(Boolean))];
  if (events.length) out.events = events;
  return out;
}

/** The filter back as search params (the report's link and the page's own links). */
export function filterToSearch(f: UrlFilter): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of FILTER_PARAMS) if (f[key]) out.set(key, f[key]!);
  for (const e of f.events ?? []) out.append("event", e);
  return out;
}
