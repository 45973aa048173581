import type { SelectHTMLAttributes } from "react";
import { OptionSelect } from "~/components/select-field";

type Zone = { id: number; label: string };

/** The time-zone picker of the key, group and settings forms: a blank choice, then every zone by label. */
export function ZoneSelect({ zones, placeholder, ...props }: { zones: Zone[]; placeholder: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  return <OptionSelect blank={placeholder} options={zones.map((z) => ({ value: z.id, label: z.label }))} {...props} />;
}
