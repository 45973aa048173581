/**
 * An instant as the phone shows it: in the phone's own zone (or `timeZone`), in the app's language,
 * with the zone's label, so a time read while travelling says which clock it is on.
 */
export function phoneTime(at: number, lang: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(lang, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short", timeZone }).format(at);
}
