import { Field } from "~/components/ui/field";
import type { ConditionField } from "~/schemas/alerts";

/** The value of a picker's "any" entry: the condition holds for every user or device. */
const ANY = "any";

type Props = {
  field: ConditionField;
  label: string;
  anyLabel: string;
  hint: string;
  error?: string;
  items: { id: number; name: string }[];
  initial: string[];
};

/** One of the alert's condition pickers: a multiple select posted as repeated fields, "any" first. */
export function ConditionPicker({ field, label, anyLabel, hint, error, items, initial }: Props) {
  return (
    <Field label={label} error={error} required hint={hint}>
      <select
        name={field}
        multiple
        defaultValue={initial}
        size={Math.min(8, items.length + 1)}
        className="w-full rounded-md border border-input bg-background p-1 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <option value={ANY}>{anyLabel}</option>
        {items.map((x) => (
          <option key={x.id} value={x.id}>
            {x.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
