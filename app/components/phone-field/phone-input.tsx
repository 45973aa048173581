import { forwardRef, type InputHTMLAttributes } from "react";
import { Input } from "~/components/ui/input";
import { callingCode, maskUs, PHONE_INPUT_MAX } from "~/utils/phone";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> & {
  /** The country chosen beside it ('US', 'ES'): +1 numbers take the spec's mask 999-999-9999. */
  region: string | undefined;
  value: string;
  onChange: (value: string) => void;
};

/** True when the region dials +1 (the spec's 10-digit rule and mask apply). */
export const dialsPlusOne = (region: string | undefined) => callingCode(region) === "1";

/**
 * The number of a phone field: masked 999-999-9999 for +1 countries, free digits and spaces
 * elsewhere. A number typed with '+' or '00' carries its own country and is left as typed.
 */
export const PhoneInput = forwardRef<HTMLInputElement, Props>(function PhoneInput({ region, value, onChange, ...props }, ref) {
  const masked = dialsPlusOne(region) && !/^\s*(\+|00)/.test(value);
  return (
    <Input
      ref={ref}
      {...props}
      type="tel"
      autoComplete="off"
      maxLength={masked ? 12 : PHONE_INPUT_MAX}
      placeholder={masked ? "999-999-9999" : undefined}
      value={masked ? maskUs(value) : value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
});
