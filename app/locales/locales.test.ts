/**
 * Every screen is in English and Spanish: each namespace file exists in both languages with the same
 * keys, nested ones included, so no text falls back to the other language or shows its key. The one
 * allowed difference is Spanish for texts English shows as they are (`translateMessage`,
 * app/i18n/messages.ts): a server message keyed by its own English text, and zod's texts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const LANGUAGES = ["en", "es"] as const;
const dir = (lang: string) => new URL(`./${lang}/`, import.meta.url);

const namespaces = (lang: string) =>
  readdirSync(dir(lang))
    .filter((f) => f.endsWith(".json"))
    .sort();

/** Dotted paths of every leaf (`invite.subject`); an object's own path is not a key. */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k));
}

const read = (lang: string, file: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(file, dir(lang)), "utf8"));
const keysOf = (lang: string, file: string) => keyPaths(read(lang, file));

/** Keys present in `lang`'s file and absent from the other language's. */
const missingFrom = (file: string, lang: string, other: string) => {
  const theirs = new Set(keysOf(other, file));
  return keysOf(lang, file).filter((k) => !theirs.has(k));
};

/** A top-level English text used as its own key ("Note is required"), or one of zod's texts (`zod.required`). */
const isEnglishShownAsIs = (file: string, key: string) => (/\s/.test(key) && typeof read("es", file)[key] === "string") || (file === "messages.json" && key.startsWith("zod."));

describe("locales", () => {
  it("have the same namespace files in every language", () => {
    expect(namespaces("es")).toEqual(namespaces("en"));
  });

  it.each(namespaces("en"))("%s has the same keys in English and Spanish", (file) => {
    const [en, es] = LANGUAGES;
    const onlyInSpanish = missingFrom(file, es, en).filter((k) => !isEnglishShownAsIs(file, k));
    expect({ onlyInEnglish: missingFrom(file, en, es), onlyInSpanish }).toEqual({ onlyInEnglish: [], onlyInSpanish: [] });
  });
});
