// Writes app/services/public-holidays/data.json: the public holidays of a few countries and of Spain's
// regions for FIRST_YEAR..LAST_YEAR, from date-holidays (a dev dependency only: the Worker reads the
// compact file, so the library's rules and every other country stay out of the bundle; decision 0077).
// Format: { sets: { "<CC>" | "<CC>-<REGION>": { label, names: [...], years: { "<YYYY>": "MMDD.n MMDD.n ..." } } } }
// where n indexes `names` (names repeat every year). Only "public" days (not observances); one name per date.
// Run: node scripts/gen-public-holidays.mjs
import { writeFileSync } from "node:fs";
import Holidays from "date-holidays";

const FIRST_YEAR = 2025;
const LAST_YEAR = 2035;
const COUNTRIES = ["ES", "PT", "FR", "DE", "IT", "GB", "IE", "NL", "BE", "US", "CA", "MX", "AR", "CL", "CO", "PE", "BR", "AU"];
const REGIONS_OF = { ES: true };

function setOf(country, region) {
  const h = region ? new Holidays(country, region) : new Holidays(country);
  const names = [];
  const years = {};
  for (let y = FIRST_YEAR; y <= LAST_YEAR; y++) {
    const seen = new Set();
    const days = [];
    for (const d of h.getHolidays(y)) {
      const date = d.date.slice(0, 10);
      if (d.type !== "public" || seen.has(date) || !date.startsWith(String(y))) continue;
      seen.add(date);
      let n = names.indexOf(d.name);
      if (n < 0) n = names.push(d.name) - 1;
      days.push(`${date.slice(5, 7)}${date.slice(8, 10)}.${n}`);
    }
    years[y] = days.sort().join(" ");
  }
  return { names, years };
}

const all = new Holidays();
const countryNames = all.getCountries("en");
const sets = {};
for (const c of COUNTRIES) {
  sets[c] = { label: countryNames[c], ...setOf(c) };
  if (!REGIONS_OF[c]) continue;
  for (const [r, label] of Object.entries(all.getStates(c, "en"))) sets[`${c}-${r}`] = { label: `${countryNames[c]}: ${label}`, ...setOf(c, r) };
}
writeFileSync(new URL("../app/services/public-holidays/data.json", import.meta.url), JSON.stringify({ firstYear: FIRST_YEAR, lastYear: LAST_YEAR, sets }) + "\n");
