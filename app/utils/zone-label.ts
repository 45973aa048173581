/**
 * Time-zone names for people. A zone's stored label is its canonical IANA id with spaces
 * ("America/New York", "America/Argentina/Buenos Aires"); people look for the city, so the pickers
 * show the city first and the region after it, "New York (America)", and keep the id as the value.
 */
export function readableZone(label: string): string {
  const parts = label.replace(/_/g, " ").split("/");
  if (parts.length < 2) return label;
  const city = parts.pop()!;
  return `${city} (${parts.join("/")})`;
}

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").replace(/[_/]/g, " ").toLowerCase();

/**
 * Whether a zone matches what was typed: every word of the query is found in its city, region or
 * canonical id, accents, case, '_' and '/' aside ("york", "new york", "America/New_York", "sao paulo").
 */
export function zoneMatches(zone: { label: string; name?: string }, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const text = fold(`${zone.label} ${zone.name ?? ""}`);
  return words.every((w) => text.includes(w));
}
