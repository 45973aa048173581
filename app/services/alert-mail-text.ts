/**
 * The alert mail's words in the alert's language (the texts are the `mail.*` keys of the alerts and
 * activity locale files): the activity by its translated name, the door by name and the moment in the
 * company's zone with its abbreviation, "27/11/2026 14:05 CET" in Spanish, "Nov 27, 2026, 14:05 CET"
 * in English. Plain functions, so the company log store runs them without an i18next instance.
 */
import enActivity from "~/locales/en/activity.json";
import enAlerts from "~/locales/en/alerts.json";
import esActivity from "~/locales/es/activity.json";
import esAlerts from "~/locales/es/alerts.json";
import { formatDateTime, zoneAbbreviation } from "~/utils/format";

export type MailLanguage = "en" | "es";
type Texts = Record<string, unknown>;
const TEXTS: Record<MailLanguage, { alerts: Texts; activity: Texts }> = {
  en: { alerts: enAlerts, activity: enActivity },
  es: { alerts: esAlerts, activity: esActivity },
};
const MONTHS = new Intl.DateTimeFormat("en-US", { month: "short", timeZone: "UTC" });

const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ""));

/** The moment in `zone`, in the language's order, with the zone's abbreviation. */
export function mailTime(at: number, zone: string, language: MailLanguage): string {
  const text = formatDateTime(at, zone, language);
  if (language === "es") return `${text} ${zoneAbbreviation(at, zone)}`;
  // English names the month: "Nov 27, 2026, 14:05" from "11/27/2026 14:05".
  const [date, time] = text.split(" ");
  const [m, d, y] = date.split("/");
  return `${MONTHS.format(Date.UTC(2000, Number(m) - 1, 1))} ${Number(d)}, ${y}, ${time} ${zoneAbbreviation(at, zone)}`;
}

export function alertMailText(language: MailLanguage, zone: string) {
  const { alerts, activity } = TEXTS[language];
  const t = (key: string, values: Record<string, string | number> = {}) => fill(alerts[`mail.${key}`] as string, values);
  return {
    line: (x: { at: number; activity: string; door?: string; summary: string }) => {
      const name = (activity[`name.${x.activity}`] as string | undefined) ?? x.activity;
      const what = x.door ? t("atDoor", { activity: name, door: x.door }) : name;
      return `${mailTime(x.at, zone, language)}  ${what}${x.summary ? `: ${x.summary}` : ""}`;
    },
    single: (alert: string, line: string, link: string) => ({
      subject: t("subject", { name: alert }),
      body: `${t("fired", { name: alert })}\n\n${line}\n\n${t("details", { link })}\n`,
    }),
    digest: (alert: string, count: number, lines: string[], minutes: number, link: string) => ({
      subject: t("digestSubject", { name: alert, count }),
      body: `${t("firedTimes", { name: alert, count, minutes })}\n\n${lines.join("\n")}${count > lines.length ? `\n${t("more", { count: count - lines.length })}` : ""}\n\n${t("log", { link })}\n`,
    }),
  };
}
