import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { readableZone } from "~/utils/zone-label";
import type { Core, EKeyWindow, Interval } from "~core";
import { browserZone } from "./use-core";

const DAY_MS = 86_400_000;

/** `2026-03-08T03:30:00-04:00` → `2026-03-08 03:30`. */
const local = (core: Core, at: number, tz: string) => core.formatLocal(at, tz).slice(0, 16).replace("T", " ");

function weekday(at: number, tz: string, lng: string) {
  return new Intl.DateTimeFormat(lng, { weekday: "short", timeZone: tz }).format(at);
}

/** Intervals that contain a UTC-offset change of `tz` (a DST switch inside the window). */
function dstCrossings(core: Core, intervals: Interval[], tz: string) {
  return intervals.filter(([a, b]) => core.offsetAt(a, tz) !== core.offsetAt(b - 1, tz));
}

/**
 * Where the preview starts: now, or a future key's first opening (so a key for a weekend months away
 * shows that weekend's real hours and its DST change). Ends of windows are the core's to compute.
 */
function previewStart(core: Core, window: EKeyWindow, now: number): number {
  if (window.access === "full") return now;
  const first = core.nextOpen(window, now);
  return first != null && first > now ? first : now;
}

/**
 * The 7 days of access from max(now, the key's first opening) computed by the core, in the key's zone and in the viewer's own zone,
 * a warning when a DST change falls inside a window, and the 'why / when next' answer for a moment
 * the admin picks (`core.decide`).
 */
export function EkeyPreview({ core, window, label }: { core: Core; window: EKeyWindow; label: string }) {
  const { t, i18n } = useTranslation("users");
  // Rendered only in the browser (the core loads there), so the viewer's clock is the reference.
  const [now] = useState(() => Date.now());
  const lng = i18n.language === "es" ? "es" : "en";
  const mine = browserZone();
  const from = useMemo(() => previewStart(core, window, now), [core, window, now]);
  const intervals = useMemo(() => core.occurrences(window, from, from + 7 * DAY_MS), [core, window, from]);
  const crossings = useMemo(() => dstCrossings(core, intervals, window.tz), [core, intervals, window.tz]);
  const full = window.access === "full";

  const row = (tz: string) =>
    intervals.map(([a, b]) => (
      <li key={`${tz}-${a}`} className="font-mono text-xs">
        {weekday(a, tz, lng)} {local(core, a, tz)} → {local(core, b, tz)}
      </li>
    ));

  return (
    <section className="grid gap-3 rounded-lg border bg-muted/30 p-4" aria-label={t("preview")} data-testid="ekey-preview">
      <h3 className="text-sm font-medium">{from > now ? t("previewFrom", { date: local(core, from, window.tz).slice(0, 10) }) : t("preview")}</h3>
      {full ? (
        <p className="text-sm">{t("previewFull")}</p>
      ) : intervals.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("previewNone")}</p>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <p className="mb-1 text-xs text-muted-foreground">{t("previewKeyZone", { zone: window.tz })}</p>
            <ul className="grid gap-0.5">{row(window.tz)}</ul>
          </div>
          <div>
            <p className="mb-1 text-xs text-muted-foreground">{t("previewMyZone", { zone: mine })}</p>
            <ul className="grid gap-0.5">{row(mine)}</ul>
          </div>
        </div>
      )}
      <HolidaysInPreview core={core} window={window} from={from} />
      {crossings.map(([a]) => (
        <Alert key={a} variant="warning">
          <AlertDescription>{t("dstWarning", { zone: window.tz, date: local(core, a, window.tz).slice(0, 10) })}</AlertDescription>
        </Alert>
      ))}
      <WhyWhen core={core} window={window} label={label} lng={lng} now={from} />
    </section>
  );
}

/** The holidays the 7 previewed days hold, and what each does to the key (decision 0077). */
function HolidaysInPreview({ core, window, from }: { core: Core; window: EKeyWindow; from: number }) {
  const { t } = useTranslation("users");
  const first = local(core, from, window.tz).slice(0, 10);
  const last = local(core, from + 7 * DAY_MS, window.tz).slice(0, 10);
  const on = window.onHolidays ?? "ignore";
  const days = on === "ignore" ? [] : (window.holidays ?? []).filter((h) => h.date >= first && h.date <= last);
  if (!days.length) return null;
  const effect = (h: NonNullable<EKeyWindow["holidays"]>[number]) => {
    const hours = h.openTime || h.closeTime ? `${h.openTime ?? "00:00"}–${h.closeTime ?? "24:00"}` : null;
    if (on === "closed") return hours ? t("holidayClosedOutside", { hours }) : t("holidayClosed");
    return hours ? t("holidayHoursOnly", { hours }) : t("holidayClosed");
  };
  return (
    <div data-testid="ekey-preview-holidays">
      <p className="mb-1 text-xs text-muted-foreground">{t("previewHolidays")}</p>
      <ul className="grid gap-0.5">
        {days.map((h) => (
          <li key={h.date} className="text-xs">
            <span className="font-mono">{h.date}</span> {h.name ?? ""}: {effect(h)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Picks a moment (in the viewer's zone) and asks the core whether the key opens then, and why. */
function WhyWhen({ core, window, label, lng, now }: { core: Core; window: EKeyWindow; label: string; lng: "en" | "es"; now: number }) {
  const { t } = useTranslation("users");
  const mine = browserZone();
  const [at, setAt] = useState(() => local(core, now, mine).replace(" ", "T"));
  const [answer, setAnswer] = useState<string | null>(null);

  const check = () => {
    const ms = new Date(at).getTime();
    if (!Number.isFinite(ms)) return;
    const d = core.decide([{ id: "key", label, window }], ms, { lang: lng });
    const next = d.allowed ? d.until != null && t("until", { time: local(core, d.until, mine) }) : d.nextOpen != null && t("nextOpen", { time: local(core, d.nextOpen, mine) });
    setAnswer(`${d.allowed ? t("allowed") : t("denied")}: ${d.reason}${next ? ` (${next})` : ""}`);
  };

  return (
    <div className="grid gap-2">
      <Label htmlFor="ekey-why-at">{t("whyTitle", { zone: readableZone(mine) })}</Label>
      <div className="flex flex-wrap gap-2">
        <Input id="ekey-why-at" type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} className="w-auto" />
        <Button type="button" variant="outline" onClick={check}>
          {t("whyCheck")}
        </Button>
      </div>
      {answer && (
        <p className="text-sm" role="status" data-testid="ekey-why">
          {answer}
        </p>
      )}
    </div>
  );
}
