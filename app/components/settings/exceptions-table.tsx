import { useTranslation } from "react-i18next";
import { TrashIcon } from "~/components/users/icons";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { ConfirmButton } from "./confirm-button";
import type { ExceptionRow } from "./schedule-rows";
import { TimeCell } from "./time-cell";

type Props = {
  exceptions: ExceptionRow[];
  setException: (key: number, patch: Partial<ExceptionRow>) => void;
  onDelete: (key: number) => void;
  err: (key: string) => string | undefined;
};

/** The dated exceptions, each with its hours and a confirmed delete; an empty list says so. */
export function ExceptionsTable({ exceptions, setException, onDelete, err }: Props) {
  const { t } = useTranslation("settings");
  return (
    <>
      {exceptions.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("schedule.noExceptions")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full max-w-3xl text-sm" data-testid="exceptions">
            <thead>
              <tr className="text-left text-muted-foreground">
                <th className="py-1 pr-3 font-medium">{t("schedule.date")}</th>
                <th className="py-1 pr-3 font-medium">{t("schedule.open")}</th>
                <th className="py-1 pr-3 font-medium">{t("schedule.openTime")}</th>
                <th className="py-1 pr-3 font-medium">{t("schedule.closeTime")}</th>
                <th className="py-1" />
              </tr>
            </thead>
            <tbody>
              {exceptions.map((row, i) => {
                const n = i + 1;
                const at = `schedule_exceptions.${i}`;
                return (
                  <tr key={row.key} className="border-t align-top">
                    <td className="py-2 pr-3">
                      <Input
                        type="date"
                        value={row.exceptionDate}
                        onChange={(e) => setException(row.key, { exceptionDate: e.target.value })}
                        aria-label={t("schedule.dateOf", { n })}
                        aria-invalid={err(`${at}.exceptionDate`) ? true : undefined}
                        aria-describedby={err(`${at}.exceptionDate`) ? `${at}-date-error` : undefined}
                      />
                      {err(`${at}.exceptionDate`) && (
                        <p id={`${at}-date-error`} className="mt-1 text-xs font-medium text-destructive">
                          {err(`${at}.exceptionDate`)}
                        </p>
                      )}
                    </td>
                    <td className="py-2 pr-3">
                      <Checkbox
                        checked={row.openWholeDay}
                        onCheckedChange={(on) => setException(row.key, { openWholeDay: on === true })}
                        aria-label={t("schedule.openOf", { n })}
                        className="mt-2.5"
                      />
                    </td>
                    <TimeCell
                      label={t("schedule.openTimeOfException", { n })}
                      value={row.openTime}
                      disabled={!row.openWholeDay}
                      error={err(`${at}.openTime`)}
                      onChange={(v) => setException(row.key, { openTime: v })}
                    />
                    <TimeCell
                      label={t("schedule.closeTimeOfException", { n })}
                      value={row.closeTime}
                      disabled={!row.openWholeDay}
                      error={err(`${at}.closeTime`)}
                      onChange={(v) => setException(row.key, { closeTime: v })}
                    />
                    <td className="py-2">
                      <ConfirmButton
                        trigger={
                          <Button type="button" variant="ghost" size="icon-sm" aria-label={t("schedule.delete", { n })}>
                            <TrashIcon />
                          </Button>
                        }
                        title={t("schedule.deleteTitle")}
                        description={row.exceptionDate ? t("schedule.deleteDescription", { date: row.exceptionDate }) : t("schedule.deleteUndated")}
                        confirmLabel={t("schedule.deleteConfirm")}
                        cancelLabel={t("cancel")}
                        onConfirm={() => onDelete(row.key)}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
