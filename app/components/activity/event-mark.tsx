import { cn } from "~/utils/cn";
import type { Mark } from "./activity-text";

/** Granted, denied and the alarms at a glance: a shape and a word, never colour alone. */
const base = { width: 16, height: 16, viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: 2.5, strokeLinecap: "round", strokeLinejoin: "round" } as const;

const GOOD = "border-emerald-600/40 text-emerald-800 dark:text-emerald-300";
const DANGER = "border-red-600/50 bg-red-50 font-semibold text-red-800 dark:bg-red-950 dark:text-red-300";
const WARNING = "border-amber-600/50 bg-amber-50 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-200";

const STYLE: Record<Mark, string> = { granted: GOOD, denied: DANGER, forced: DANGER, tamper: DANGER, heldOpen: WARNING, lowBattery: WARNING };

const ICON: Record<Mark, JSX.Element> = {
  granted: <path d="M5 12.5l4.5 4.5L19 7.5" />,
  denied: <path d="M6 6l12 12M18 6L6 18" />,
  // A warning triangle for what someone did to a door; a clock for a door left open; a low cell.
  forced: <path d="M12 3l10 18H2L12 3zM12 10v5M12 18h.01" />,
  tamper: <path d="M12 3l10 18H2L12 3zM12 10v5M12 18h.01" />,
  heldOpen: <path d="M12 3a9 9 0 100 18 9 9 0 000-18zM12 7v5l3 2" />,
  lowBattery: <path d="M3 8h15v8H3zM21 11v2M6 11v2" />,
};

export function EventMark({ mark, label }: { mark: Mark; label: string }) {
  return (
    <span className={cn("inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap", STYLE[mark])} data-mark={mark}>
      <svg {...base} aria-hidden focusable={false}>
        {ICON[mark]}
      </svg>
      {label}
    </span>
  );
}
