import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { BoardAnswer } from "~/schemas/mobile";
import type { AccessWindow, Core } from "~core";
import { localTime } from "./key-status";
import { PhoneApiError, phoneApi } from "./phone-api";
import { installationId, phoneStore, type HeldPass } from "./phone-store";
import { phoneTime } from "./phone-time";
import { PresentDialog } from "./present-dialog";
import { storePendingLanguage, switchLanguage } from "./remember-language";

/** The pass a link names: `#pass=<id>.<secret>` (decision 0096), taken out of the address once read. */
function takeLinkToken(): string | null {
  const m = /^#pass=([0-9]+\.[A-Za-z0-9_-]+)$/.exec(window.location.hash);
  if (!m) return null;
  history.replaceState(null, "", window.location.pathname + window.location.search);
  return m[1];
}

type Refusal = "pass-invalid" | "pass-expired" | "pass-other-phone" | "offline" | "error";

/**
 * A guest's visitor pass on the phone, with no account: the link binds it to this phone, the pass and its
 * signed credential are kept on the phone so it opens doors offline, and it is refreshed whenever online.
 * Presenting works as for a key (QR code or copy; the board's answer shown).
 */
export function useGuestPass(online: boolean) {
  const { i18n } = useTranslation();
  const [held, setHeld] = useState<HeldPass | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [loaded, setLoaded] = useState(false);

  const fetchPass = useCallback(
    async (token: string, fromLink = false) => {
      try {
        const { payload } = await phoneApi.openPass(token, installationId());
        // A link opened shows the pass in the language the host invited in; afterwards the switch decides.
        if (fromLink && !i18n.language?.startsWith(payload.language)) switchLanguage(i18n, payload.language);
        else storePendingLanguage();
        const next = { token, pass: payload, fetchedAt: Date.now() };
        phoneStore.setGuestPass(next);
        setHeld(next);
        setRefusal(null);
      } catch (e) {
        const code = e instanceof PhoneApiError ? e.code : undefined;
        if (code === "pass-invalid" || code === "pass-expired" || code === "pass-other-phone") {
          // Withdrawn, over or someone else's: what this phone kept of it must not open doors any more.
          if (phoneStore.guestPass()?.token === token) phoneStore.setGuestPass(null);
          setHeld((h) => (h?.token === token ? null : h));
          setRefusal(code);
        } else setRefusal(e instanceof PhoneApiError ? "error" : "offline");
      }
    },
    [i18n],
  );

  useEffect(() => {
    const fromLink = takeLinkToken();
    const kept = phoneStore.guestPass();
    setHeld(kept && (!fromLink || kept.token === fromLink) ? kept : null);
    setLoaded(true);
    const token = fromLink ?? kept?.token;
    if (token && navigator.onLine) void fetchPass(token, token === fromLink);
    else if (fromLink) setRefusal("offline");
    // Another link opened while the app is already showing (the same page, a new fragment).
    const onLink = () => {
      const next = takeLinkToken();
      if (next) void fetchPass(next, true);
    };
    window.addEventListener("hashchange", onLink);
    return () => window.removeEventListener("hashchange", onLink);
  }, [fetchPass]);

  // Back online: a fresh credential (the pass may also have been used up or withdrawn meanwhile).
  useEffect(() => {
    if (online && held) void fetchPass(held.token);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [online]);

  return { held, refusal, loaded };
}

export function GuestPassSection({ core, now, held, refusal }: { core: Core; now: number; held: HeldPass | null; refusal: Refusal | null }) {
  const { t, i18n } = useTranslation("mobile");
  const [presenting, setPresenting] = useState(false);
  const [last, setLast] = useState<BoardAnswer | null>(null);
  if (!held) {
    return refusal ? (
      <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm" data-testid="guest-pass-refused">
        {t(`guest.${refusal}`)}
      </p>
    ) : null;
  }
  const { pass } = held;
  const passWindow = pass.window as unknown as AccessWindow;
  const next = core.validate(passWindow).length === 0 ? core.nextChange(passWindow, now) : null;
  const openNow = Boolean(next?.open) && !pass.used;
  const usable = pass.credential != null && pass.credential.expiresAt > now && !pass.used;
  const days = pass.startDate === pass.endDate ? pass.startDate : `${pass.startDate} – ${pass.endDate}`;
  return (
    <section aria-labelledby="guest-pass-title" className="rounded-lg border bg-card p-4 shadow-sm" data-testid="guest-pass">
      <div className="flex items-start justify-between gap-2">
        <h2 id="guest-pass-title" className="text-lg font-semibold">
          {t("guest.title", { company: pass.company })}
        </h2>
        <Badge variant={openNow ? "success" : "secondary"} className={openNow ? "text-foreground" : undefined} data-testid="open-now">
          {pass.used ? t("guest.used") : openNow ? t("openNow") : t("closedNow")}
        </Badge>
      </div>
      <p className="text-sm">{t("guest.for", { guest: pass.guestName, host: pass.hostName })}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{t("guest.doors")}</dt>
        <dd className="[overflow-wrap:anywhere]">{pass.doors.map((d) => d.name).join(", ") || t("noDoors")}</dd>
        <dt className="text-muted-foreground">{t("guest.when")}</dt>
        <dd>
          {t("guest.hours", { days, start: pass.startTime, end: pass.endTime, tz: pass.tz })}
          {pass.oneEntry && ` · ${t("guest.oneEntry")}`}
        </dd>
      </dl>
      {!pass.used && next && !next.open && (
        <p className="mt-1 text-sm" data-testid="next-open">
          {next.nextOpen != null ? t("nextOpen", { time: localTime(core, next.nextOpen, pass.tz), tz: pass.tz }) : t("neverOpens")}
        </p>
      )}
      {pass.credential && usable ? (
        <p className="mt-2 text-xs text-muted-foreground">{t("validUntil", { time: phoneTime(pass.credential.expiresAt, i18n.language) })}</p>
      ) : (
        !pass.used && (
          <p role="status" className="mt-2 text-sm font-medium text-destructive" data-testid="needs-refresh">
            {t("guest.needsRefresh")}
          </p>
        )
      )}
      <Button type="button" className="mt-3" size="sm" disabled={!usable || pass.doors.length === 0} onClick={() => setPresenting(true)}>
        {t("present")}
      </Button>
      <p role="status" className={last?.allowed ? "mt-2 text-sm font-medium" : "mt-2 text-sm font-medium text-destructive"} data-testid="present-result">
        {last && (last.allowed ? t("doorOpened") : t("doorRefused", { reason: t(`reason.${last.reason}`, { defaultValue: last.reason }) }))}
      </p>
      {presenting && (
        <PresentDialog
          heldKey={{ id: Number(pass.id.slice(1)), name: t("guest.keyName", { company: pass.company }), doors: pass.doors, credential: pass.credential }}
          lockdownState={null}
          open={presenting}
          onOpenChange={setPresenting}
          // The door reports the entry itself once it reaches its gateway; the guest has no account to report to.
          onResult={(_e, answer) => setLast(answer)}
        />
      )}
    </section>
  );
}
