/**
 * The /activityDetails sections as an activity type's templates describe them (spec part 1: "a first
 * section and a details section built from templates"; `first_section_info`, `details_section_info`).
 * The spec gives no template syntax. Ours: the names of the fields to show, comma-separated, in the order
 * shown, e.g. `date,trigger,user,device,deviceGroup`. Field names rather than text with placeholders keep
 * the labels translatable and the values formatted in the reader's language and zone. An empty template
 * (a type added without one) shows every field of its section; a name this console does not know is
 * skipped, so a template written for a newer console still renders (decision 0063).
 */
export const FIRST_FIELDS = ["date", "trigger", "triggeredBy", "user", "device", "deviceGroup"] as const;
export const DETAIL_FIELDS = ["summary", "reason", "nextOpen", "gps"] as const;
export type FirstField = (typeof FIRST_FIELDS)[number];
export type DetailField = (typeof DETAIL_FIELDS)[number];

function fieldsOf<F extends string>(template: string, known: readonly F[]): F[] {
  const named = template
    .split(",")
    .map((s) => s.trim())
    .filter((s): s is F => (known as readonly string[]).includes(s));
  return template.trim() === "" ? [...known] : [...new Set(named)];
}

/** The fields of both sections, from the type's two templates. */
export function activitySections(type: { firstSectionInfo: string; detailsSectionInfo: string }): { first: FirstField[]; details: DetailField[] } {
  return { first: fieldsOf(type.firstSectionInfo, FIRST_FIELDS), details: fieldsOf(type.detailsSectionInfo, DETAIL_FIELDS) };
}
