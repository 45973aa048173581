import { useTranslation } from "react-i18next";
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
      <ProgrammerList id="available-programmers" title={t("fobs.available")} empty={t("fobs.noneAvailable")} items={available} onPick={(p) => onMove(p, true)} />
      <ProgrammerList id="assigned-programmers" title={t("fobs.assigned")} empty={t("fobs.noneAssigned")} items={assigned} onPick={(p) => onMove(p, false)} />
      {assigned.map((p) => (
        <input key={p.id} type="hidden" name="fob_programmers" value={p.id} />
      ))}
    </div>
  );
}

function ProgrammerList({ id, title, empty, items, onPick }: { id: string; title: string; empty: string; items: FobProgrammer[]; onPick: (p: FobProgrammer) => void }) {
  return (
    <section aria-labelledby={`${id}-title`} className="grid content-start gap-2 rounded-lg border p-3">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({items.length})</span>
      </h2>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="max-h-80 overflow-y-auto" data-testid={id}>
          {items.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                onClick={() => onPick(p)}
                className="w-full rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                {p.displayName}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
