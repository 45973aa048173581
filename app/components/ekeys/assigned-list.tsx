import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { TrashIcon } from "~/components/users/icons";
import { cn } from "~/utils/cn";
import type { AssignedKey } from "./types";

const DAY_KEYS = [0, 1, 2, 3, 4, 5, 6] as const;

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
        const name = k.is_group ? k.deviceGroup?.full_name : k.ekeyDetails?.full_name;
        const isSelected = selected === k.entry_id;
        const days = k.schedule_days.map((on, i) => (on ? t(`day.${DAY_KEYS[i]}`) : null)).filter(Boolean).join(" ");
        return (
          <li key={k.entry_id} className={cn("flex items-center gap-2 rounded-md border p-2", isSelected && "border-primary bg-accent")}>
            <button
              type="button"
              className="grid flex-1 gap-0.5 text-left text-sm"
              aria-pressed={isSelected}
              onClick={() => onSelect(isSelected ? null : k.entry_id)}
            >
              <span className="font-medium">
                {name} {k.is_group && <Badge variant="secondary">{t("keyGroup")}</Badge>}
              </span>
              <span className="text-xs text-muted-foreground">
                {t(k.access_type)} · {k.access_type === "full_access" ? t("always") : `${k.start_date ?? ""}${k.is_never_end ? " →" : ` → ${k.end_date ?? ""}`} · ${days} · ${k.is_all_day ? t("allDay") : `${k.start_time}–${k.end_time}`} · ${k.time_zone ?? ""}`}
              </span>
            </button>
            <Badge variant="outline">{t(`ekeyStatus.${k.ekeyStatus.img}`, { defaultValue: k.ekeyStatus.title })}</Badge>
            {canDelete && (
              <ConfirmDialog
                trigger={
                  <Button variant="ghost" size="icon-sm" aria-label={`${t("remove")} ${name}`}>
                    <TrashIcon />
                  </Button>
                }
                title={t("removeKeyTitle")}
                description={t("removeKeyDescription", { name })}
                fields={{ intent: "removeKey", entryId: k.entry_id, kind: k.is_group ? "group" : "device" }}
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
