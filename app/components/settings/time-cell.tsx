import { useId } from "react";
import { Input } from "~/components/ui/input";

/** A time field in a schedule table's cell, with its error below it. */
export function TimeCell({ label, value, disabled, error, onChange }: { label: string; value: string; disabled: boolean; error?: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <td className="py-2 pr-3">
      <Input
        type="time"
        step={300}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
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
