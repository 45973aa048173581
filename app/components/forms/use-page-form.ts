import { getFormProps, useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useActionData } from "@remix-run/react";
import { useEffect, useState, type FormEvent, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import type { z, ZodTypeAny } from "zod";
import { translateMessage } from "~/i18n/messages";
import { parseOptionsFor } from "~/utils/form-options";

/** The posted fields: the schema's input, or its output when a preprocess step leaves the input unknown. */
type FormShape<S extends ZodTypeAny> = unknown extends z.input<S> ? z.output<S> : z.input<S>;

type Options<S extends ZodTypeAny> = {
  id: string;
  /** The schema the action parses: it types `fields`, so a misspelt field name does not compile. */
  schema: S;
  /** The i18n namespace whose keys translate the schema's and the services' English messages. */
  ns: string;
  /** The action's reply; defaults to this route's action data (pass a fetcher's for a fetcher form). */
  lastResult?: SubmissionResult<string[]> | null;
  /** Called once the browser checks pass; a form that posts by itself (the OTA upload) prevents the default there. */
  onSubmit?: (event: FormEvent<HTMLFormElement>, submit: { formData: FormData; action: string }) => void;
  /** The fields' first values, for inputs that take them from `getInputProps`. */
  defaultValue?: DefaultValue<FormShape<S>>;
  /** "onSubmit" for a short form in a dialog or beside a list, where a check on leaving a field would interrupt. */
  shouldValidate?: "onBlur" | "onSubmit";
};

/**
 * A mouse press on a submit button leaves the focus in the field: its blur check would otherwise show
 * an error above the button, move the button away and swallow the click.
 */
function keepFocusOnSubmit(event: MouseEvent<HTMLFormElement>) {
  if ((event.target as Element).closest("button")?.type === "submit") event.preventDefault();
}

/**
 * Conform + the form's zod schema in the browser, the same schema the action parses: a field is
 * checked when it loses focus and again on every input once checked (so its error clears as it is
 * fixed). `err` gives a field's first error, translated, and hides it until the field holds a value
 * or the form was submitted, so tabbing through an empty form turns nothing red. Once submitted, the
 * other fields' errors stay while one field is fixed (Conform's status forgets the submit on the next
 * check); a reset form starts over. Spread `formProps` on the `<Form>`.
 */
export function usePageForm<S extends ZodTypeAny>({ id, schema, ns, lastResult, onSubmit, defaultValue, shouldValidate = "onBlur" }: Options<S>) {
  const actionData = useActionData<{ result?: SubmissionResult<string[]> }>();
  const { t } = useTranslation(ns);
  const [form, fields] = useForm<FormShape<S>>({
    id,
    lastResult: lastResult === undefined ? actionData?.result : lastResult,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate,
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema, ...parseOptionsFor(schema) }),
    onSubmit: onSubmit && ((event, { formData, action }) => onSubmit(event, { formData, action })),
  });
  const [submitted, setSubmitted] = useState(false);
  // Conform gives the form a new key when it resets (a reply with resetForm, a reset button).
  useEffect(() => setSubmitted(false), [form.key]);
  const err = (field: { errors?: string[]; dirty: boolean }) =>
    field.errors?.[0] && (field.dirty || submitted || form.status === "error") ? translateMessage(t, field.errors[0], ns) : undefined;
  const formError = form.errors?.[0] ? translateMessage(t, form.errors[0], ns) : undefined;
  const conformProps = getFormProps(form);
  const formProps = {
    ...conformProps,
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      // Conform checks a field on blur by submitting with its own intent button: that is no submit.
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      if (submitter?.name !== "__intent__") setSubmitted(true);
      conformProps.onSubmit(event);
    },
    onMouseDown: keepFocusOnSubmit,
  };
  return { form, fields, err, formError, formProps, t };
}
