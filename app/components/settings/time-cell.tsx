import { useId } from "react";
import { TimeInput } from "~/components/ui/time-input";

/** A time field in a schedule table's cell, with its error below it. */
export function TimeCell({ label, value, disabled, error, onChange }: { label: string; value: string; disabled: boolean; error?: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <td className="py-2 pr-3">
      <TimeInput
        step={300}
        value={value}
        disabled={disabled}
        onValueChange={onChange}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </td>
  );
}
