/** Granted or denied at a glance: a shape and a word, not colour alone. */
const base = { width: 16, height: 16, viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: 2.5, strokeLinecap: "round", strokeLinejoin: "round" } as const;

export function OutcomeMark({ outcome, label }: { outcome: "granted" | "denied"; label: string }) {
  return (
    <span
      className={
        outcome === "granted"
          ? "inline-flex items-center gap-1 rounded-full border border-emerald-600/40 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:text-emerald-300"
          : "inline-flex items-center gap-1 rounded-full border border-red-600/50 bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-300"
      }
      data-outcome={outcome}
    >
      <svg {...base} aria-hidden focusable={false}>
        {outcome === "granted" ? <path d="M5 12.5l4.5 4.5L19 7.5" /> : <path d="M6 6l12 12M18 6L6 18" />}
      </svg>
      {label}
    </span>
  );
}
