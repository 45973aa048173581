import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancel, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/**
 * Starting a plan asks twice (issue 31): the first step says what will happen, the second asks for the
 * plan's name typed again, which the server checks before it starts anything.
 */
export function StartDialog({ plan }: { plan: { id: number; name: string; mode: "lockdown" | "evacuation" } }) {
  const { t } = useTranslation("lockdown");
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<1 | 2>(1);
  const [typed, setTyped] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const navigation = useNavigation();
  const busy = submitted && navigation.state !== "idle";
  useEffect(() => {
    if (submitted && navigation.state === "idle") {
      setSubmitted(false);
      setOpen(false);
    }
  }, [submitted, navigation.state]);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        setOpen(next);
        setStep(1);
        setTyped("");
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive" size="sm" aria-label={t("startLabel", { name: plan.name })}>
          {t("start")}
        </Button>
      </DialogTrigger>
      <DialogContent role="alertdialog" closeLabel={t("cancel")}>
        <DialogHeader>
          <DialogTitle>{t("startTitle", { name: plan.name })}</DialogTitle>
          <DialogDescription>{t(plan.mode === "evacuation" ? "startEvacuation" : "startLockdown")}</DialogDescription>
        </DialogHeader>
        {step === 1 ? (
          <DialogFooter>
            <DialogCancel>{t("cancel")}</DialogCancel>
            <Button type="button" variant="destructive" onClick={() => setStep(2)}>
              {t("continue")}
            </Button>
          </DialogFooter>
        ) : (
          <Form method="post" onSubmit={() => setSubmitted(true)} className="grid gap-4">
            <input type="hidden" name="intent" value="start" />
            <input type="hidden" name="id" value={plan.id} />
            <Field label={t("confirmName", { name: plan.name })}>
              <Input id="lockdown-confirm-name" name="confirmName" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={100} autoComplete="off" autoFocus />
            </Field>
            <DialogFooter>
              <DialogCancel disabled={busy}>{t("cancel")}</DialogCancel>
              <Button type="submit" variant="destructive" loading={busy} disabled={typed.trim().toLowerCase() !== plan.name.toLowerCase()}>
                {t("startNow")}
              </Button>
            </DialogFooter>
          </Form>
        )}
      </DialogContent>
    </Dialog>
  );
}
