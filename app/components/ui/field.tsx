import { Slot } from "@radix-ui/react-slot";
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from "react";
import { cn } from "~/utils/cn";
import { Label } from "./label";

export interface FieldProps {
  label: ReactNode;
  /** Exactly one control (Input, Textarea, NativeSelect, Checkbox, Switch, …). */
  children: ReactElement;
  /** Help text under the control, announced with it. */
  hint?: ReactNode;
  /** Validation message(s), e.g. conform's `field.errors`; the first one is shown. */
  error?: string | string[] | null;
  /** Control id; defaults to the child's `id`, else a generated one. */
  id?: string;
  /** Marks the label and sets `aria-required` (no native `required`, so server validation stays in charge). */
  required?: boolean;
  /** `horizontal` puts a checkbox or switch before its label. */
  orientation?: "vertical" | "horizontal";
  className?: string;
}

/**
 * Label + control + hint + error, wired for assistive technology: the label points at the
 * control, the control is described by the hint and error, and `aria-invalid` flags the error.
 * Ids follow conform's convention (`<id>-description`, `<id>-error`).
 *
 *   <Field label="Email" error={fields.email.errors} hint="Used to sign in">
 *     <Input name="email" type="email" />
 *   </Field>
 */
export function Field({ label, children, hint, error, id, required, orientation = "vertical", className }: FieldProps) {
  const generatedId = useId();
  const childId = isValidElement<{ id?: string }>(children) ? children.props.id : undefined;
  const controlId = id ?? childId ?? generatedId;
  const hintId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const message = Array.isArray(error) ? error[0] : error;
  const describedBy = [hint ? hintId : null, message ? errorId : null].filter(Boolean).join(" ") || undefined;

  // The field is invalid exactly when its error shows: a control's own `aria-invalid` (Conform's
  // `getInputProps` sets it from errors the form still hides, e.g. after tabbing past an empty field)
  // would otherwise paint it red with no message. Slot lets the child's props win, so override them here.
  const invalid = message ? true : undefined;
  const control = (
    <Slot id={controlId} aria-describedby={describedBy} aria-required={required || undefined}>
      {isValidElement(children) ? cloneElement(children as ReactElement<{ "aria-invalid"?: boolean }>, { "aria-invalid": invalid }) : children}
    </Slot>
  );
  const labelElement = (
    <Label htmlFor={controlId}>
      {label}
      {required && (
        <span className="ml-0.5 text-destructive" aria-hidden="true">
          *
        </span>
      )}
    </Label>
  );

  return (
    <div className={cn("grid content-start gap-1.5", className)}>
      {orientation === "horizontal" ? (
        <div className="flex items-center gap-2">
          {control}
          {labelElement}
        </div>
      ) : (
        <>
          {labelElement}
          {control}
        </>
      )}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {message && (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {message}
        </p>
      )}
    </div>
  );
}
