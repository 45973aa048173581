import { forwardRef, useEffect, useState, type InputHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { normalizeTimeText } from "~/utils/time-text";
import { Input } from "./input";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "onChange"> & { value: string; onValueChange: (time: string) => void };

/**
 * A time of day, `HH:mm`. English keeps the browser's time field, which follows the reader's own locale
 * (12-hour in the US, 24-hour in the UK). Spanish readers always write 24-hour times, which the browser's
 * field does not promise, so in Spanish it is a text field read as 24-hour ("2200" and "22.00" become 22:00).
 */
export const TimeInput = forwardRef<HTMLInputElement, Props>(function TimeInput({ value, onValueChange, onBlur, step, ...props }, ref) {
  const { i18n } = useTranslation();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  if (!i18n.language.startsWith("es")) return <Input ref={ref} type="time" step={step} value={value} onChange={(e) => onValueChange(e.target.value)} onBlur={onBlur} {...props} />;
  return (
    <Input
      ref={ref}
      type="text"
      inputMode="numeric"
      placeholder="HH:MM"
      maxLength={5}
      autoComplete="off"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const time = normalizeTimeText(e.target.value);
        onValueChange(/^\d{2}:\d{2}$/.test(time) && e.target.value.length >= 4 ? time : e.target.value);
      }}
      onBlur={(e) => {
        const time = normalizeTimeText(text);
        setText(time);
        onValueChange(time);
        onBlur?.(e);
      }}
      {...props}
    />
  );
});
