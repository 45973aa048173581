import type { TFunction } from "i18next";
import { Badge } from "~/components/ui/badge";

/**
 * The door as the console may state it: current only while the board is online; an offline or
 * never-seen board's door is its last report ("Last known: Open") or unknown, never shown as now.
 */
export function DoorState({ t, online, doorState }: { t: TFunction; online: boolean | null; doorState: "open" | "closed" | null }) {
  if (!doorState) return <span className="text-muted-foreground">{t("door.unknown")}</span>;
  if (online !== true) return <span className="text-muted-foreground">{t("door.lastKnown", { state: t(`door.${doorState}`) })}</span>;
  return <Badge variant={doorState === "open" ? "warning" : "secondary"}>{t(`door.${doorState}`)}</Badge>;
}
