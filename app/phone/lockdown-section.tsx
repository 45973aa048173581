import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { translateMessage } from "~/i18n/messages";
import { PhoneApiError, phoneApi, type PhoneLockdown } from "./phone-api";
import { phoneTime } from "./phone-time";

type Plan = PhoneLockdown["plans"][number];
type Answer = { ok: boolean; text: string };

/**
 * Lockdown from the phone (issue 31, decision 0083): the plans this user may start, each started in two
 * steps (its button, then a dialog naming the plan and what it does), and the lockdown in force with who
 * started it and when, and "End" (confirmed too) when the console lets this user end it. The console
 * decides: a refusal is its answer, in the reader's language. `onChanged` refreshes the phone after a
 * start or an end, so it carries the newer signed lockdown state to the doors.
 */
export function LockdownSection({ lockdown, token, online, onChanged }: { lockdown: PhoneLockdown | null; token: string; online: boolean; onChanged: () => Promise<void> }) {
  const { t, i18n } = useTranslation("mobile");
  const [confirming, setConfirming] = useState<Plan | null>(null);
  const [confirmingEnd, setConfirmingEnd] = useState(false);
  /** What is being sent: the end, or the start of the plan with this id. */
  const [busy, setBusy] = useState<"end" | number | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  if (!lockdown || (lockdown.plans.length === 0 && !lockdown.inForce)) return null;
  const { plans, inForce } = lockdown;

  /** Sends the start or the end; says `done` (in the plan's mode) when the console took it, the console's refusal when not. */
  async function send(what: "end" | number, call: () => Promise<unknown>, done: string) {
    setConfirming(null);
    setConfirmingEnd(false);
    setBusy(what);
    setAnswer(null);
    try {
      await call();
      setAnswer({ ok: true, text: done });
    } catch (e) {
      setAnswer({ ok: false, text: e instanceof PhoneApiError ? translateMessage(t, e.message, "mobile") : t("lockdownNotSent") });
    } finally {
      setBusy(null);
    }
    // Started, ended or refused because the state changed meanwhile: the phone shows and carries what is in force now.
    await onChanged().catch(() => undefined);
  }

  return (
    <section aria-labelledby="lockdown-title" className="space-y-3 rounded-lg border bg-card p-4" data-testid="phone-lockdown">
      <h2 id="lockdown-title" className="font-semibold">
        {t("lockdownTitle")}
      </h2>
      {inForce && (
        <div className="space-y-2 rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm" data-testid="lockdown-in-force">
          <p className="font-semibold">{t(`lockdownInForce.${inForce.mode}`, { name: inForce.planName })}</p>
          <p>{t("lockdownStartedBy", { name: inForce.startedBy, time: phoneTime(inForce.startedAt, i18n.language) })}</p>
          {inForce.endsAt != null && <p>{t("lockdownEndsAt", { time: phoneTime(inForce.endsAt, i18n.language) })}</p>}
          {inForce.mayEnd && (
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={!online || busy !== null}
              aria-busy={busy === "end"}
              aria-label={t("lockdownEndLabel", { name: inForce.planName })}
              onClick={() => setConfirmingEnd(true)}
            >
              {busy === "end" ? t("lockdownEnding") : t("lockdownEnd")}
            </Button>
          )}
        </div>
      )}
      {answer && (
        <p role={answer.ok ? "status" : "alert"} className={answer.ok ? "text-sm font-medium" : "text-sm font-medium text-destructive"} data-testid="lockdown-answer">
          {answer.text}
        </p>
      )}
      {plans.length > 0 && (
        <>
          <p className="text-sm text-muted-foreground">{inForce ? t("lockdownStartBlocked") : t("lockdownPlansHint")}</p>
          <ul className="space-y-2" aria-label={t("lockdownPlans")}>
            {plans.map((plan) => (
              <li key={plan.id} className="flex flex-wrap items-center justify-between gap-2 text-sm" data-plan-id={plan.id}>
                <span>
                  <span className="font-medium">{plan.name}</span> <span className="text-muted-foreground">· {t(`lockdownMode.${plan.mode}`)}</span>
                </span>
                <Button
                  type="button"
                  size="sm"
                  variant="destructive"
                  disabled={!online || busy !== null || inForce != null}
                  aria-busy={busy === plan.id}
                  aria-label={t("lockdownStartLabel", { name: plan.name })}
                  onClick={() => setConfirming(plan)}
                >
                  {busy === plan.id ? t("lockdownStarting") : t("lockdownStart")}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)}>
        <DialogContent role="alertdialog" closeLabel={t("cancel")}>
          <DialogHeader>
            <DialogTitle>{t("lockdownStartTitle", { name: confirming?.name })}</DialogTitle>
            <DialogDescription>{confirming && t(`lockdownStartBody.${confirming.mode}`, { name: confirming.name })}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setConfirming(null)}>
              {t("cancel")}
            </Button>
            <Button
              type="button"
              variant="destructive"
              onClick={() => confirming && void send(confirming.id, () => phoneApi.startLockdown(token, confirming.id), t(`lockdownStarted.${confirming.mode}`))}
            >
              {confirming && t(`lockdownStartNow.${confirming.mode}`)}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Dialog open={confirmingEnd} onOpenChange={setConfirmingEnd}>
        <DialogContent role="alertdialog" closeLabel={t("cancel")}>
          <DialogHeader>
            <DialogTitle>{t("lockdownEndTitle", { name: inForce?.planName })}</DialogTitle>
            <DialogDescription>{t("lockdownEndBody")}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setConfirmingEnd(false)}>
              {t("cancel")}
            </Button>
            <Button type="button" onClick={() => inForce && void send("end", () => phoneApi.endLockdown(token), t(`lockdownEnded.${inForce.mode}`))}>
              {t("lockdownEnd")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </section>
  );
}
