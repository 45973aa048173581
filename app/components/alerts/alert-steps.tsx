import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";

/** The alert form's four steps, in order. */
export const STEPS = ["alert", "conditions", "schedule", "recipients"] as const;

/** Which step shows each field, so a failed save opens the step with the first error. */
export const STEP_OF: Record<string, number> = {
  name: 0,
  activities: 0,
  createdBy: 1,
  targetUsers: 1,
  devices: 1,
  schedule: 2,
  startDate: 2,
  endDate: 2,
  days: 2,
  startTime: 2,
  endTime: 2,
  timeZoneId: 2,
  onHolidays: 2,
  holidayCalendarId: 2,
  recipients: 3,
};

/** The step list above the form; any step can be opened at any time. */
export function StepNav({ step, onStep }: { step: number; onStep: (i: number) => void }) {
  const { t } = useTranslation("alerts");
  return (
    <nav aria-label={t("steps")}>
      <ol className="flex flex-wrap gap-2">
        {STEPS.map((s, i) => (
          <li key={s}>
            <Button type="button" variant={i === step ? "default" : "outline"} size="sm" aria-current={i === step ? "step" : undefined} onClick={() => onStep(i)}>
              {t("stepLabel", { n: i + 1, name: t(`step.${s}`) })}
            </Button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
