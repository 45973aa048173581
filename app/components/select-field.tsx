import type { SelectHTMLAttributes } from "react";
import { Field, type FieldProps } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";

export type SelectOption = { value: string | number; label: string };

type SelectFieldProps = Pick<FieldProps, "label" | "error" | "required" | "className"> & {
  id: string;
  /** The first, empty choice ("Any", "Choose…"). */
  blank: string;
  options: readonly SelectOption[];
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "required" | "className">;

/**
 * A labelled `<select>` of a blank choice then the given options (a role, group, device or user), wired by `Field`:
 *
 *   <SelectField id="user-group" label={t("search.group")} name="groupId" blank={t("search.any")} options={groups.map((g) => ({ value: g.id, label: g.fullName }))} />
 */
export function SelectField({ id, label, error, required, className, blank, options, ...select }: SelectFieldProps) {
  return (
    <Field label={label} id={id} error={error} required={required} className={className}>
      <NativeSelect id={id} {...select}>
        <option value="">{blank}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}

/** Rows named by their full name (groups, devices) as options. */
export const namedOptions = (rows: readonly { id: number; fullName: string }[]): SelectOption[] => rows.map((r) => ({ value: r.id, label: r.fullName }));
