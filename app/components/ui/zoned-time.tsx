import { useTranslation } from "react-i18next";
import { cn } from "~/utils/cn";
import { formatZonedTime, type Timestamp } from "~/utils/format";

/**
 * A moment in the company's zone, labelled ("11/20/2026 13:00:05 CET", from `formatZonedTime`, the day
 * written in the reader's language: "20/11/2026 13:00:05 CET" in Spanish), that
 * may break between the date and the time so a narrow table column stays narrow. `fallback` shows
 * when there is no moment.
 */
export function ZonedTime({ value, timeZone, className, fallback = "-" }: { value: Timestamp; timeZone: string; className?: string; fallback?: string }) {
  const { i18n } = useTranslation();
  const text = formatZonedTime(value, timeZone, i18n.language);
  if (!text) return <>{fallback}</>;
  const cut = text.indexOf(" ");
  const ms = typeof value === "number" ? value : value!.getTime();
  return (
    <time dateTime={new Date(ms).toISOString()} className={cn("whitespace-normal", className)}>
      <span className="whitespace-nowrap">{text.slice(0, cut)}</span> <span className="whitespace-nowrap">{text.slice(cut + 1)}</span>
    </time>
  );
}
