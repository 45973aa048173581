import { useTranslation } from "react-i18next";
import { Checkbox } from "~/components/ui/checkbox";
import type { Row } from "./schedule-rows";
import { TimeCell } from "./time-cell";

type Props = { week: Row[]; setDay: (i: number, patch: Partial<Row>) => void; err: (key: string) => string | undefined };

/** Monday to Sunday: open or not, and the hours. */
export function WeekTable({ week, setDay, err }: Props) {
  const { t } = useTranslation("settings");
  return (
    <>
      {/* On a phone the time fields need more than the screen: the table scrolls in its own box, the page does not. */}
      <div className="overflow-x-auto">
        <table className="w-full max-w-2xl text-sm" data-testid="week">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="py-1 pr-3 font-medium">{t("schedule.day")}</th>
              <th className="py-1 pr-3 font-medium">{t("schedule.open")}</th>
              <th className="py-1 pr-3 font-medium">{t("schedule.openTime")}</th>
              <th className="py-1 pr-3 font-medium">{t("schedule.closeTime")}</th>
            </tr>
          </thead>
          <tbody>
            {week.map((row, i) => {
              const day = t(`day.${i}`);
              return (
                <tr key={i} className="border-t align-top">
                  <th scope="row" className="py-2 pr-3 text-left font-medium">
                    {day}
                  </th>
                  <td className="py-2 pr-3">
                    <Checkbox
                      checked={row.openWholeDay}
                      onCheckedChange={(on) => setDay(i, { openWholeDay: on === true })}
                      aria-label={t("schedule.openDay", { day })}
                      className="mt-2.5"
                    />
                  </td>
                  <TimeCell
                    label={t("schedule.openTimeOf", { day })}
                    value={row.openTime}
                    disabled={!row.openWholeDay}
                    error={err(`schedule_opens.${i}.openTime`)}
                    onChange={(v) => setDay(i, { openTime: v })}
                  />
                  <TimeCell
                    label={t("schedule.closeTimeOf", { day })}
                    value={row.closeTime}
                    disabled={!row.openWholeDay}
                    error={err(`schedule_opens.${i}.closeTime`)}
                    onChange={(v) => setDay(i, { closeTime: v })}
                  />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
