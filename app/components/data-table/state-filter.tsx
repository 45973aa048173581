import { Form, useSubmit } from "@remix-run/react";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";

type Props = {
  /** The search landmark's name, e.g. "Filter the passes". */
  label: string;
  /** The select's label and its "every state" choice. */
  stateLabel: string;
  anyLabel: string;
  states: readonly string[];
  optionLabel: (state: string) => string;
  /** The current `?state=`, "" for every state. */
  value: string;
  /** Query parameters the list needs besides the state (an endpoint's `id`). */
  keep?: Record<string, string | number>;
};

/**
 * A list's one filter by state, as a GET form: `?state=` in the URL, applied as soon as it is chosen.
 * Lists with several filters have their own filter bar (devices, alarms, fleet).
 */
export function StateFilter({ label, stateLabel, anyLabel, states, optionLabel, value, keep = {} }: Props) {
  const submit = useSubmit();
  return (
    <Form method="get" role="search" aria-label={label} className="flex items-end gap-3" key={value}>
      {Object.entries(keep).map(([name, v]) => (
        <input key={name} type="hidden" name={name} value={v} />
      ))}
      <div className="grid w-48 gap-1">
        <Label htmlFor="filter-state">{stateLabel}</Label>
        <NativeSelect
          id="filter-state"
          name="state"
          defaultValue={value}
          onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
          options={states.map((s) => ({ value: s, label: optionLabel(s) }))}
        >
          <option value="">{anyLabel}</option>
        </NativeSelect>
      </div>
    </Form>
  );
}
