import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { asLeader, openChannel, readLastActivity, writeLastActivity, type SessionMessage } from "./idle-clock";

const ACTIVITY_EVENTS = ["pointerdown", "keydown", "wheel", "touchstart", "mousemove"] as const;
/** Local activity is recorded at most this often, and the server session is kept alive at most this often. */
const RECORD_EVERY_MS = 1_000;
const KEEPALIVE_EVERY_MS = 60_000;

/** `/login?reason=idle&redirectTo=<this page>` (the login action accepts same-origin paths only). */
export function loginAfterIdle(at: Pick<Location, "pathname" | "search">): string {
  const params = new URLSearchParams({ reason: "idle" });
  if (at.pathname !== "/" || at.search) params.set("redirectTo", at.pathname + at.search);
  return `/login?${params}`;
}

/**
 * Idle protection (docs/ARCHITECTURE.md §4): after `idleMs` without activity in any tab, a dialog counts
 * down `warningMs`; Continue Session resumes, and at zero one tab signs the user out ('User Logs
 * Out' is recorded by the server) while the others follow. The server enforces the same limit.
 */
export function IdleGuard({ idleMs, warningMs }: { idleMs: number; warningMs: number }) {
  const { t } = useTranslation("common");
  const keepalive = useFetcher();
  const [remaining, setRemaining] = useState<number | null>(null);
  const lastKeepalive = useRef(Date.now());
  const lastRecord = useRef(0);
  const channel = useRef<ReturnType<typeof openChannel> | null>(null);
  const loggingOut = useRef(false);

  // The sign-in page says why, and brings the user back here afterwards.
  const goToLogin = useCallback(() => window.location.assign(loginAfterIdle(window.location)), []);

  const signOut = useCallback(async () => {
    if (loggingOut.current) return;
    loggingOut.current = true;
    await asLeader(async () => {
      await fetch("/logout", { method: "POST", body: new URLSearchParams({ reason: "idle" }), redirect: "manual" });
      channel.current?.post({ type: "logged-out" });
    });
    goToLogin();
  }, [goToLogin]);

  const touch = useCallback(
    (now: number) => {
      writeLastActivity(now);
      if (now - lastKeepalive.current > KEEPALIVE_EVERY_MS) {
        lastKeepalive.current = now;
        keepalive.submit(null, { method: "post", action: "/resources/session" });
      }
    },
    [keepalive],
  );

  const continueSession = useCallback(() => {
    const now = Date.now();
    lastKeepalive.current = now;
    writeLastActivity(now);
    keepalive.submit(null, { method: "post", action: "/resources/session" });
    channel.current?.post({ type: "continued", at: now });
    setRemaining(null);
  }, [keepalive]);

  useEffect(() => {
    writeLastActivity(Date.now());
    channel.current = openChannel((m: SessionMessage) => {
      if (m.type === "logged-out") goToLogin();
      else setRemaining(null);
    });
    const onActivity = () => {
      const now = Date.now();
      if (now - lastRecord.current < RECORD_EVERY_MS) return;
      lastRecord.current = now;
      // While the warning shows, only Continue Session resumes (as the spec's dialog asks).
      if (document.querySelector("[data-idle-warning]")) return;
      touch(now);
    };
    ACTIVITY_EVENTS.forEach((e) => window.addEventListener(e, onActivity, { passive: true }));
    const timer = window.setInterval(() => {
      const idleFor = Date.now() - readLastActivity();
      if (idleFor >= idleMs + warningMs) void signOut();
      else if (idleFor >= idleMs) setRemaining(Math.ceil((idleMs + warningMs - idleFor) / 1000));
      else setRemaining(null);
    }, 250);
    return () => {
      ACTIVITY_EVENTS.forEach((e) => window.removeEventListener(e, onActivity));
      window.clearInterval(timer);
      channel.current?.close();
    };
  }, [idleMs, warningMs, signOut, touch, goToLogin]);

  return (
    <Dialog open={remaining !== null} onOpenChange={(open) => !open && continueSession()}>
      <DialogContent data-idle-warning="" role="alertdialog" closeLabel={t("close")}>
        <DialogHeader>
          <DialogTitle>{t("idle.title")}</DialogTitle>
          <DialogDescription>
            <span aria-live="polite" data-testid="idle-countdown">
              {t("idle.body", { seconds: remaining ?? 0 })}
            </span>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button onClick={continueSession} autoFocus data-testid="continue-session">
            {t("idle.continue")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
