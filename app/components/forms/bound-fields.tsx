import { CountryPicker } from "~/components/phone-field/country-picker";
import { PhoneInput } from "~/components/phone-field/phone-input";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/** A form's controlled text values, how to change one, and each field's label and error. */
type Bound<K extends string> = {
  /** Prefix of each control's id (`${idPrefix}-${key}`), unique on the page. */
  idPrefix: string;
  values: Record<K, string>;
  set: (key: K, value: string) => void;
  label: (key: K) => string;
  error: (key: K) => string | undefined;
  disabled?: boolean;
};

type TextFieldsProps<K extends string> = Bound<K> & {
  keys: readonly K[];
  /** The key that holds an email address (email keyboard and checks). */
  email?: K;
  /** Keys that span both columns of the form's grid. */
  wide?: readonly K[];
};

/** Required one-line text fields, one per key, each bound to `values[key]`. */
export function TextFields<K extends string>({ idPrefix, values, set, label, error, disabled, keys, email, wide = [] }: TextFieldsProps<K>) {
  return keys.map((k) => (
    <Field key={k} label={label(k)} error={error(k)} required className={wide.includes(k) ? "sm:col-span-2" : undefined}>
      <Input
        id={`${idPrefix}-${k}`}
        name={k}
        value={values[k]}
        type={k === email ? "email" : "text"}
        maxLength={200}
        autoComplete="off"
        disabled={disabled}
        onChange={(e) => set(k, e.target.value)}
      />
    </Field>
  ));
}

type PhoneFieldsProps<K extends string> = Bound<K> & {
  /** The keys of the country (its region or calling code, as the form stores it) and of the number. */
  country: K;
  phone: K;
  /** The region the number is typed and checked in (none yet: the picker's default). */
  region: string | undefined;
};

/** A phone number as two required fields: the country picker and the number, formatted for that country. */
export function PhoneFields<K extends string>({ idPrefix, values, set, label, error, disabled, country, phone, region }: PhoneFieldsProps<K>) {
  return (
    <>
      <Field label={label(country)} error={error(country)} required>
        <CountryPicker id={`${idPrefix}-${country}`} name={country} region={region} disabled={disabled} onChange={(r) => set(country, r)} />
      </Field>
      <Field label={label(phone)} error={error(phone)} required>
        <PhoneInput id={`${idPrefix}-${phone}`} name={phone} region={region} value={values[phone]} disabled={disabled} onChange={(v) => set(phone, v)} />
      </Field>
    </>
  );
}
