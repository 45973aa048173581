import { usePageForm } from "~/components/forms/use-page-form";
import { getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { NOTE_MAX, supportNoteSchema } from "~/schemas/support";
import { formatDate } from "~/utils/format";

export type NoteActionData = { result: SubmissionResult<string[]> };
type Note = { id: number; note: string; createdAt: number; authorName: string };

/** The add-note form (with the add right) and the notes, newest first: date, author, text. */
export function TicketNotes({ notes, canAdd, timeZone, lastResult }: { notes: Note[]; canAdd: boolean; timeZone: string; lastResult?: SubmissionResult<string[]> }) {
  const { t, i18n } = useTranslation("support");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "note";
  const { fields, err, formError, formProps } = usePageForm({ id: "ticket-note", schema: supportNoteSchema, ns: "support", lastResult, shouldValidate: "onSubmit" });
  // A saved note empties the box for the next one.
  const box = useRef<HTMLFormElement>(null);
  const saved = notes.length;
  useEffect(() => box.current?.reset(), [saved]);
  return (
    <div className="grid gap-4">
      {canAdd && (
        <Form method="post" ref={box} {...formProps} className="grid gap-2">
          <input type="hidden" name="intent" value="note" />
          <FormAlert message={formError} />
          <Field label={t("addNote")} error={err(fields.notes)} required>
            <Textarea {...getTextareaProps(fields.notes)} rows={3} maxLength={NOTE_MAX} />
          </Field>
          <div>
            <Button type="submit" loading={busy}>
              {t("add")}
            </Button>
          </div>
        </Form>
      )}
      {notes.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("noNotes")}</p>
      ) : (
        <ul className="grid gap-3" data-testid="ticket-notes">
          {notes.map((n) => (
            <li key={n.id} className="rounded-md border px-4 py-3">
              <p className="text-xs text-muted-foreground">
                <time dateTime={new Date(n.createdAt).toISOString()}>{formatDate(n.createdAt, timeZone, i18n.language)}</time> · {n.authorName}
              </p>
              <p className="mt-1 text-sm whitespace-pre-line break-words">{n.note}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
