/**
 * The activity log's archive in R2 (docs/decisions/0049-activity-hot-window-archive.md): one gzip NDJSON
 * object per company per UTC day of `activity_timestamp`, holding that day's rows and their notes as
 * arrays in the store's column order. An object is always written whole, so a write cut off leaves the
 * previous version and is simply written again.
 */
import { LOG_COLUMNS, NOTE_COLUMNS } from "./company-log-schema";

export const DAY_MS = 86_400_000;
/** A row or note as the archive holds it: the store's columns in order. */
export type Values = (string | number | null)[];
export type ArchivedDay = { rows: Values[]; notes: Values[] };

/** The UTC day number of an instant (days since the epoch). */
export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);
export const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Where a company's day lives: one prefix per company, so a company's archive is listed or dropped alone. */
export const dayKey = (companyId: number, day: number) => `activity/${companyId}/${isoDay(day)}.ndjson.gz`;

const col = (name: (typeof LOG_COLUMNS)[number]) => LOG_COLUMNS.indexOf(name);
export const ROW_ID = col("id");
const ROW_EVENT = col("event_id");
const PERSON_COLUMNS = [col("created_by_user_id"), col("target_user_id")];
const NOTE_ACTIVITY = NOTE_COLUMNS.indexOf("activity_id");
const NOTE_USER = NOTE_COLUMNS.indexOf("user_id");

export async function writeDay(bucket: R2Bucket, companyId: number, day: number, content: ArchivedDay): Promise<void> {
  const lines = [...content.rows.map((r) => JSON.stringify(["r", ...r])), ...content.notes.map((n) => JSON.stringify(["n", ...n]))];
  const text = lines.length ? lines.join("\n") + "\n" : "";
  const body = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  await bucket.put(dayKey(companyId, day), body, {
    httpMetadata: { contentType: "application/x-ndjson", contentEncoding: "gzip" },
    customMetadata: { rows: String(content.rows.length), notes: String(content.notes.length) },
  });
}

/** The day's archived rows and notes, or none when the day was never archived (or its object was deleted). */
export async function readDay(bucket: R2Bucket, companyId: number, day: number): Promise<ArchivedDay | null> {
  const object = await bucket.get(dayKey(companyId, day));
  if (!object) return null;
  const text = await new Response(object.body.pipeThrough(new DecompressionStream("gzip"))).text();
  const content: ArchivedDay = { rows: [], notes: [] };
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [kind, ...values] = JSON.parse(line) as ["r" | "n", ...Values];
    (kind === "r" ? content.rows : content.notes).push(values);
  }
  return content;
}

export const deleteDay = (bucket: R2Bucket, companyId: number, day: number) => bucket.delete(dayKey(companyId, day));

/**
 * Both sets by id, the second's version winning, in id order as the store writes them. A held row whose
 * event id the archive has is an event sent again after its day left the store: it is the same event.
 */
export function mergeDay(archived: ArchivedDay, held: ArchivedDay): ArchivedDay {
  const byId = (older: Values[], newer: Values[], id: number) => {
    const all = new Map<number, Values>();
    for (const v of [...older, ...newer]) all.set(v[id] as number, v);
    return [...all.values()].sort((a, b) => (a[id] as number) - (b[id] as number));
  };
  const ids = new Set(archived.rows.map((r) => r[ROW_ID]));
  const events = new Set(archived.rows.map((r) => r[ROW_EVENT]).filter((e) => e !== null));
  const fresh = held.rows.filter((r) => r[ROW_EVENT] === null || !events.has(r[ROW_EVENT]) || ids.has(r[ROW_ID]));
  return { rows: byId(archived.rows, fresh, ROW_ID), notes: byId(archived.notes, held.notes, NOTE_COLUMNS.indexOf("id")) };
}

/**
 * What anonymising leaves of a row: when, what and which door or group, not who. The people, the
 * place and the free text (which can name them) go; so do the notes people wrote on it.
 */
export function anonymiseDay(content: ArchivedDay): ArchivedDay {
  const rows = content.rows.map((r) => {
    const out = [...r];
    for (const i of PERSON_COLUMNS) out[i] = null;
    out[col("gps_location")] = null;
    out[col("summary")] = "";
    out[col("details_json")] = "{}";
    return out;
  });
  return { rows, notes: [] };
}

/** The day without one person: the rows that name them and every note on those rows or by them. */
export function eraseFromDay(content: ArchivedDay, userId: number): ArchivedDay {
  const erased = new Set(content.rows.filter((r) => PERSON_COLUMNS.some((i) => r[i] === userId)).map((r) => r[ROW_ID]));
  return {
    rows: content.rows.filter((r) => !erased.has(r[ROW_ID])),
    notes: content.notes.filter((n) => n[NOTE_USER] !== userId && !erased.has(n[NOTE_ACTIVITY])),
  };
}
