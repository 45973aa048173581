import { describe, expect, it } from "vitest";
import { anonymiseDay, dayKey, eraseFromDay, mergeDay, type Values } from "./company-log-archive";
import { LOG_COLUMNS } from "./company-log-schema";

/** A row in the store's column order. */
function row(over: Partial<Record<(typeof LOG_COLUMNS)[number], string | number | null>>): Values {
  const base = {
    id: 1,
    company_id: 3,
    event_id: null,
    activity_type_id: 9,
    operation_type: "Device",
    created_by_user_id: 4,
    target_user_id: 5,
    target_device_id: 6,
    target_device_group_id: null,
    summary: "Opened by Ana",
    details_json: '{"by":"Ana"}',
    gps_location: "40.4,-3.7",
    activity_timestamp: 1_000,
    created_at: 1_000,
  };
  return LOG_COLUMNS.map((c) => ({ ...base, ...over })[c]);
}
// id, company_id, activity_id, user_id, note_description, created_at
const note = (id: number, activityId: number, userId: number): Values => [id, 3, activityId, userId, "a note", 1_000];

describe("an archived day", () => {
  it("is keyed by company and UTC day", () => {
    expect(dayKey(3, 20_000)).toBe("activity/3/2024-10-04.ndjson.gz");
  });

  it("merges held rows into the archived ones by id, the held version winning, and keeps a re-sent event once", () => {
    const archived = { rows: [row({ id: 1, event_id: "e1" }), row({ id: 3, summary: "old" })], notes: [note(1, 1, 4)] };
    const held = { rows: [row({ id: 2 }), row({ id: 3, summary: "new" }), row({ id: 9, event_id: "e1" })], notes: [note(2, 3, 4)] };
    const merged = mergeDay(archived, held);
    expect(merged.rows.map((r) => [r[0], r[9]])).toEqual([
      [1, "Opened by Ana"],
      [2, "Opened by Ana"],
      [3, "new"],
    ]);
    expect(merged.notes.map((n) => n[0])).toEqual([1, 2]);
  });

  it("anonymised keeps when, what and which door, not who, where or the free text, and drops the notes", () => {
    const day = anonymiseDay({ rows: [row({})], notes: [note(1, 1, 4)] });
    expect(day.notes).toEqual([]);
    expect(day.rows[0]).toEqual(row({ created_by_user_id: null, target_user_id: null, summary: "", details_json: "{}", gps_location: null }));
  });

  it("without one person loses the rows naming them, the notes on those rows and the notes they wrote", () => {
    const day = {
      rows: [row({ id: 1, created_by_user_id: 7 }), row({ id: 2, target_user_id: 7 }), row({ id: 3 })],
      notes: [note(1, 1, 4), note(2, 3, 7), note(3, 3, 4)],
    };
    const kept = eraseFromDay(day, 7);
    expect(kept.rows.map((r) => r[0])).toEqual([3]);
    expect(kept.notes.map((n) => n[0])).toEqual([3]);
  });
});
