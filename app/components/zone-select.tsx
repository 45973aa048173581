import type { SelectHTMLAttributes } from "react";
import { NativeSelect } from "~/components/ui/native-select";

type Zone = { id: number; label: string };

/** The time-zone picker of the key, group and settings forms: a blank choice, then every zone by label. */
export function ZoneSelect({ zones, placeholder, ...props }: { zones: Zone[]; placeholder: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <NativeSelect {...props}>
      <option value="">{placeholder}</option>
      {zones.map((z) => (
        <option key={z.id} value={z.id}>
          {z.label}
        </option>
      ))}
    </NativeSelect>
  );
}
