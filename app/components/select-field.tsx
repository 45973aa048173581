import type { SelectHTMLAttributes } from "react";
import { Field, type FieldProps } from "~/components/ui/field";
import { NativeSelect, type SelectOption } from "~/components/ui/native-select";

type OptionSelectProps = {
  /** The first, empty choice ("Any", "Choose…"). */
  blank: string;
  options: readonly SelectOption[];
} & SelectHTMLAttributes<HTMLSelectElement>;

/** A `<select>` of a blank choice then the given options. */
export function OptionSelect({ blank, options, ...select }: OptionSelectProps) {
  return (
    <NativeSelect {...select} options={options}>
      <option value="">{blank}</option>
    </NativeSelect>
  );
}

type SelectFieldProps = Pick<FieldProps, "label" | "error" | "required" | "className"> & { id: string } & Omit<OptionSelectProps, "id" | "required" | "className">;

/**
 * An `OptionSelect` (a role, group, device or user) with its label and error, wired by `Field`:
 *
 *   <SelectField id="user-group" label={t("search.group")} name="groupId" blank={t("search.any")} options={namedOptions(groups)} />
 */
export function SelectField({ id, label, error, required, className, ...select }: SelectFieldProps) {
  return (
    <Field label={label} id={id} error={error} required={required} className={className}>
      <OptionSelect id={id} {...select} />
    </Field>
  );
}

/** Rows named by their full name (groups, devices) as options. */
export const namedOptions = (rows: readonly { id: number; fullName: string }[]): SelectOption[] => rows.map((r) => ({ value: r.id, label: r.fullName }));
