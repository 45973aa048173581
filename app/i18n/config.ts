export const supportedLanguages = ["en", "es"] as const;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";

export const isLanguage = (v: unknown): v is Language => supportedLanguages.includes(v as Language);

/**
 * Each feature owns one namespace file per language (`app/locales/<lng>/<ns>.json`).
 * They are bundled (no fetch), so server and client render the same text on first paint.
 */
const files = import.meta.glob<{ default: Record<string, string> }>("../locales/*/*.json", { eager: true });

export const resources: Record<string, Record<string, Record<string, string>>> = {};
for (const [path, mod] of Object.entries(files)) {
  const [, lng, ns] = path.match(/locales\/(\w+)\/([\w-]+)\.json$/)!;
  (resources[lng] ??= {})[ns] = mod.default;
}

export const namespaces = Object.keys(resources.en ?? {});

export const i18nConfig = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS: "common",
  ns: namespaces,
  resources,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};
