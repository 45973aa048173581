import { useTranslation } from "react-i18next";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { ScheduleDay, ScheduleException } from "~/services/devices.server";
import { DetailList } from "./detail-list";
import { scheduleLabel } from "./schedule-text";

/** The company's weekly scheduled-open hours and exceptions, shown only for scheduled-open devices. */
export function ScheduledOpenCard({ week, exceptions }: { week: ScheduleDay[]; exceptions: ScheduleException[] }) {
  const { t } = useTranslation("devices");
  const days = [0, 1, 2, 3, 4, 5, 6].map((day) => ({
    key: `day-${day}`,
    label: t(`day.${day}`),
    value: scheduleLabel(
      t,
      week.find((w) => w.day === day),
    ),
  }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("details.scheduledOpen")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <DetailList items={days} />
        <section aria-labelledby="exceptions-title" className="grid gap-2">
          <h3 id="exceptions-title" className="text-sm font-semibold">
            {t("details.exceptions")}
          </h3>
          {exceptions.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("details.noExceptions")}</p>
          ) : (
            <ul className="grid gap-1 text-sm" data-testid="exceptions">
              {exceptions.map((e) => (
                <li key={e.id} className="flex gap-3">
                  <span className="font-medium tabular-nums">{e.date}</span>
                  <span>{scheduleLabel(t, e)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
