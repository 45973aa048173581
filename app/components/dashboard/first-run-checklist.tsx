import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckIcon } from "~/components/ui/icons";
import { CHECKLIST_STEPS, type Checklist } from "~/utils/checklist-steps";
import { cn } from "~/utils/cn";

/** Where each step is done. */
const STEP_LINKS: Record<keyof Checklist, string> = {
  zone: "/companySettings",
  door: "/devices",
  people: "/addUser",
  app: "/users",
  test: "/activity",
};

/**
 * A new company's first hour (decision 0056): five steps, each ticked by the server from the company's
 * data and linking to its screen. Gone once every step is done.
 */
export function FirstRunChecklist({ checklist }: { checklist: Checklist }) {
  const { t } = useTranslation("dashboard");
  const done = CHECKLIST_STEPS.filter((s) => checklist[s]).length;
  if (done === CHECKLIST_STEPS.length) return null;
  return (
    <section aria-labelledby="checklist-title" className="space-y-3 rounded-xl border border-primary/40 bg-card p-4 shadow-sm sm:p-6" data-testid="first-run-checklist">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="checklist-title" className="text-lg font-medium">
          {t("checklist.title")}
        </h2>
        <p className="text-sm text-muted-foreground">{t("checklist.progress", { done, total: CHECKLIST_STEPS.length })}</p>
      </div>
      <ol className="grid gap-2">
        {CHECKLIST_STEPS.map((step, i) => {
          const ok = checklist[step];
          return (
            <li key={step} data-testid={`step-${step}`} data-done={ok} className="flex items-start gap-3">
              <span
                aria-hidden="true"
                className={cn(
                  "mt-0.5 grid size-6 shrink-0 place-items-center rounded-full border text-xs font-semibold",
                  ok ? "border-success bg-success text-success-foreground" : "border-border text-muted-foreground",
                )}
              >
                {ok ? <CheckIcon className="size-4" /> : i + 1}
              </span>
              <div className="min-w-0">
                <Link
                  to={STEP_LINKS[step]}
                  className={cn(
                    "font-medium underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                    ok ? "text-muted-foreground" : "text-primary",
                  )}
                >
                  {t(`checklist.${step}`)}
                </Link>
                <span className="sr-only"> {ok ? t("checklist.done") : t("checklist.todo")}</span>
                {!ok && <p className="text-sm text-muted-foreground">{t(`checklist.${step}Hint`)}</p>}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
