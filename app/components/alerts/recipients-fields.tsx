import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SearchPicker, type PickerOption } from "~/components/ui/search-picker";
import { alertPickerSource, useChipTexts } from "./condition-picker";

type Props = {
  recipientUsers: PickerOption[];
  setRecipientUsers: (users: PickerOption[]) => void;
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
export function RecipientsFields({ recipientUsers, setRecipientUsers, recipientEmails, setRecipientEmails, name, error, sent, readOnly }: Props) {
  const { t } = useTranslation("alerts");
  const chipTexts = useChipTexts();
  return (
    <>
      <Field label={t("form.recipientUsers")} error={error} hint={t("chips.hint")}>
        <SearchPicker
          name="recipientUsers"
          multiple
          keepEnter
          value={recipientUsers}
          onChange={setRecipientUsers}
          source={alertPickerSource("users")}
          texts={chipTexts(t("chips.search"))}
        />
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
          fields={{ intent: "test", name, recipientUsers: recipientUsers.map((u) => u.value).join(","), recipientEmails }}
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
