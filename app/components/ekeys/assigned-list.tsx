import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { TrashIcon } from "~/components/users/icons";
import { cn } from "~/utils/cn";
import type { AssignedKey } from "./types";

const DAY_KEYS = [0, 1, 2, 3, 4, 5, 6] as const;

/** One labelled value; the trailing space keeps the parts apart in the button's accessible name. */
const Part = ({ label, children }: { label: string; children: ReactNode }) => (
  <span>
    <span className="font-medium">{label}:</span> {children}{" "}
  </span>
);

/** The user's keys; clicking one selects it for modification (clicking it again deselects). */
export function AssignedList({
  keys,
  selected,
  onSelect,
  canDelete,
}: {
  keys: AssignedKey[];
  selected: number | null;
  onSelect: (entryId: number | null) => void;
  canDelete: boolean;
}) {
  const { t } = useTranslation("users");
  if (keys.length === 0) return <p className="text-sm text-muted-foreground">{t("noKeys")}</p>;
  return (
    <ul className="grid gap-2" aria-label={t("ekeys")}>
      {keys.map((k) => {
        const name = k.isGroup ? k.group?.fullName : k.device?.fullName;
        const isSelected = selected === k.entryId;
        // A group key opens on its group's schedule; the assignment only adds the start date.
        const sched = k.isGroup && k.group ? { days: k.group.days, isAllDay: k.group.isAllDay, startTime: k.group.startAt, endTime: k.group.endAt } : k;
        const days = sched.days
          .map((on, i) => (on ? t(`day.${DAY_KEYS[i]}`) : null))
          .filter(Boolean)
          .join(" ");
        return (
          <li key={k.entryId} className={cn("flex items-center gap-2 rounded-md border p-2", isSelected && "border-primary bg-accent")}>
            <button type="button" className="grid flex-1 gap-0.5 text-left text-sm" aria-pressed={isSelected} onClick={() => onSelect(isSelected ? null : k.entryId)}>
              <span className="flex flex-wrap items-center gap-1 font-medium">
                {name}
                {k.isGroup && <Badge variant="secondary">{t("keyGroup")}</Badge>}
                {k.accessType === "one_time_access" && (
                  <Badge variant="warning" data-testid="ekey-one-time">
                    {t("oneTimeBadge")}
                  </Badge>
                )}
              </span>
              {/* Labelled with the form's own field names, so the list reads like the form. */}
              <span className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
                <Part label={t("access")}>{t(k.accessType)}</Part>
                {k.accessType === "full_access" ? null : (
                  <>
                    <Part label={t("startDate")}>{k.startDate ?? "—"}</Part>
                    <Part label={t("endDate")}>{k.isNeverEnd ? t("neverEnds") : (k.endDate ?? "—")}</Part>
                    <Part label={t("days")}>{days}</Part>
                    {sched.isAllDay ? (
                      <span>{t("allDay")}</span>
                    ) : (
                      <>
                        <Part label={t("startTime")}>{sched.startTime}</Part>
                        <Part label={t("endTime")}>{sched.endTime}</Part>
                      </>
                    )}
                    <Part label={t("timeZone")}>{k.timeZone ?? "—"}</Part>
                  </>
                )}
                {k.fobDeviceId ? <Part label={t("fobNumber")}>{k.fobDeviceId}</Part> : null}
              </span>
            </button>
            <Badge variant="outline">{t(`ekeyStatus.${k.keyStatus.img}`, { defaultValue: k.keyStatus.title })}</Badge>
            {canDelete && (
              <ConfirmDialog
                trigger={
                  <Button variant="ghost" size="icon-sm" aria-label={`${t("remove")} ${name}`}>
                    <TrashIcon />
                  </Button>
                }
                title={t("removeKeyTitle")}
                description={t("removeKeyDescription", { name })}
                fields={{ intent: "removeKey", entryId: k.entryId, kind: k.isGroup ? "group" : "device" }}
                confirmLabel={t("remove")}
                cancelLabel={t("cancel")}
                destructive
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
