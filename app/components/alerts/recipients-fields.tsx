import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

type Props = {
  users: { id: number; name: string; email: string }[];
  recipientUsers: string[];
  setRecipientUsers: (ids: string[]) => void;
  recipientEmails: string;
  setRecipientEmails: (text: string) => void;
  /** The alert's name, sent with the test mail. */
  name: string;
  error?: string;
  /** The action's answer to a sent test mail. */
  sent?: string;
  readOnly: boolean;
};

/** The recipients step: picked users and typed addresses, and the test mail sent to them after a confirmation. */
export function RecipientsFields({ users, recipientUsers, setRecipientUsers, recipientEmails, setRecipientEmails, name, error, sent, readOnly }: Props) {
  const { t } = useTranslation("alerts");
  return (
    <>
      <Field label={t("form.recipientUsers")} error={error} hint={t("pickerHint")}>
        <select
          name="recipientUsers"
          multiple
          value={recipientUsers}
          onChange={(e) => setRecipientUsers(Array.from(e.target.selectedOptions, (o) => o.value))}
          size={Math.min(8, Math.max(2, users.length))}
          className="w-full rounded-md border border-input bg-background p-1 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({u.email})
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("form.recipientEmails")} hint={t("form.recipientEmailsHint")}>
        <Input name="recipientEmails" value={recipientEmails} onChange={(e) => setRecipientEmails(e.target.value)} maxLength={2000} />
      </Field>
      <div className="flex flex-wrap items-center gap-3" hidden={readOnly}>
        <ConfirmDialog
          trigger={
            <Button type="button" variant="outline" disabled={recipientUsers.length === 0 && !recipientEmails.trim()}>
              {t("test.button")}
            </Button>
          }
          title={t("test.title")}
          description={t("test.description")}
          fields={{ intent: "test", name, recipientUsers: recipientUsers.join(","), recipientEmails }}
          confirmLabel={t("test.send")}
          cancelLabel={t("cancel")}
        />
        {sent && (
          <p role="status" className="text-sm text-green-700">
            {sent}
          </p>
        )}
      </div>
    </>
  );
}
