import { createCookie } from "@remix-run/cloudflare";
import { createInstance, type TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { fallbackLanguage, i18nConfig, supportedLanguages, type Language } from "./config";

/** The stored language setting (default En); logout keeps it. */
export const languageCookie = createCookie("lng", { path: "/", sameSite: "lax", maxAge: 60 * 60 * 24 * 365 });

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    cookie: languageCookie,
    // Only the explicit choice counts: the spec's default is En whatever the browser says.
    order: ["searchParams", "cookie"],
  },
  i18next: i18nConfig,
});

export async function getLanguage(request: Request): Promise<Language> {
  return (await i18nServer.getLocale(request)) as Language;
}

/** A translator for server-rendered text outside React (emails, CSV headers, API-facing text). */
export async function getFixedT(lng: Language, ns = "common"): Promise<TFunction> {
  const instance = createInstance();
  await instance.init({ ...i18nConfig, lng });
  return instance.getFixedT(lng, ns);
}
