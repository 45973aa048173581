import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { CHANNELS, type Channel } from "~/schemas/alerts";
import { SearchPicker, type PickerOption } from "~/components/ui/search-picker";
import { alertPickerSource, useChipTexts } from "./condition-picker";

type Props = {
  recipientUsers: PickerOption[];
  setRecipientUsers: (users: PickerOption[]) => void;
  recipientEmails: string;
  setRecipientEmails: (text: string) => void;
  /** The company allows texts: each picked user gets a channel (decision 0073). */
  textsAllowed: boolean;
  channels: Record<string, Channel>;
  setChannel: (userId: string, channel: Channel) => void;
  /** The alert's name, sent with the test mail. */
  name: string;
  error?: string;
  /** The action's answer to a sent test mail. */
  sent?: string;
  readOnly: boolean;
};

/** The recipients step: picked users and typed addresses, and the test mail sent to them after a confirmation. */
export function RecipientsFields(props: Props) {
  const { recipientUsers, setRecipientUsers, recipientEmails, setRecipientEmails, textsAllowed, channels, setChannel, name, error, sent, readOnly } = props;
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
      {textsAllowed && recipientUsers.length > 0 && (
        <div className="grid gap-3 sm:grid-cols-2">
          {recipientUsers.map((u) => (
            <Field key={u.value} label={t("form.channel", { name: u.label })}>
              <NativeSelect
                name="recipientChannels"
                value={`${u.value}:${channels[u.value] ?? "email"}`}
                onChange={(e) => setChannel(u.value, e.target.value.split(":")[1] as Channel)}
                options={CHANNELS.map((c) => ({ value: `${u.value}:${c}`, label: t(`channel.${c}`) }))}
              />
            </Field>
          ))}
          <p className="text-xs text-muted-foreground sm:col-span-2">{t("form.channelHint")}</p>
        </div>
      )}
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
