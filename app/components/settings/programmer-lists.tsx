import { useTranslation } from "react-i18next";
import { PickList } from "~/components/ui/pick-list";
import type { FobProgrammer } from "~/services/fob-programmers.server";

type Props = { available: FobProgrammer[]; assigned: FobProgrammer[]; onMove: (p: FobProgrammer, toAssigned: boolean) => void };

/**
 * The two lists of /setFobProgrammers: activating an entry (click, Enter or Space on its button)
 * moves it to the other list. The assigned ones post as `fob_programmers`.
 */
export function ProgrammerLists({ available, assigned, onMove }: Props) {
  const { t } = useTranslation("settings");
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <PickList id="available-programmers" heading="h2" title={t("fobs.available")} empty={t("fobs.noneAvailable")} items={available} onPick={(p) => onMove(p, true)}>
        {(p) => p.displayName}
      </PickList>
      <PickList id="assigned-programmers" heading="h2" title={t("fobs.assigned")} empty={t("fobs.noneAssigned")} items={assigned} onPick={(p) => onMove(p, false)}>
        {(p) => p.displayName}
      </PickList>
      {assigned.map((p) => (
        <input key={p.id} type="hidden" name="fob_programmers" value={p.id} />
      ))}
    </div>
  );
}
