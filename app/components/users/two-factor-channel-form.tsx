import { Form, useNavigation } from "@remix-run/react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";
import type { TwoFactorChannel } from "~/schemas/auth";
import { twoFactorChannelSchema } from "~/schemas/users";

type Props = { channel: TwoFactorChannel; canReceiveTexts: boolean; phone: string; editable: boolean };

/**
 * Account Details: where the person's own sign-in codes go. They choose it on their own page (text only
 * with a phone a text can reach); an admin reading someone else's page sees the choice.
 */
export function TwoFactorChannelForm({ channel, canReceiveTexts, phone, editable }: Props) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "two-factor-channel", schema: twoFactorChannelSchema, ns: "users" });
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "twoFactorChannel";
  const hint = [t("codeChannelHint"), canReceiveTexts ? t("codeChannelPhone", { phone }) : t("codeChannelNoPhone")].join(" ");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("codeChannelTitle")}</CardTitle>
      </CardHeader>
      <CardContent>
        {editable ? (
          <Form method="post" {...formProps} className="grid gap-4 sm:max-w-md">
            <input type="hidden" name="intent" value="twoFactorChannel" />
            {formError && <p className="text-sm font-medium text-destructive">{formError}</p>}
            <Field label={t("codeChannelLabel")} hint={hint} error={err(fields.channel)}>
              <NativeSelect name={fields.channel.name} defaultValue={channel}>
                <option value="email">{t("codeChannel.email")}</option>
                <option value="text" disabled={!canReceiveTexts}>
                  {t("codeChannel.text")}
                </option>
              </NativeSelect>
            </Field>
            <Button type="submit" variant="outline" className="w-fit" loading={saving}>
              {t("codeChannelSave")}
            </Button>
          </Form>
        ) : (
          <p className="text-sm" data-testid="code-channel">
            {t(`codeChannelIs.${channel}`)}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
