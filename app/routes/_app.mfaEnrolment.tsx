import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { requireAuth } from "~/utils/auth-guards.server";

export const meta: MetaFunction = () => [{ title: "Set up a second factor" }];

/**
 * Where a session the company's MFA policy holds to enrolment lands (decision 0123): every other page sends
 * it here until the user has an authenticator app or a passkey. A full session sees it too, as a plain choice.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  return { required: Boolean(auth.session.mfaEnrolmentOnly), company: auth.company.name };
}

export default function MfaEnrolment() {
  const { required, company } = useLoaderData<typeof loader>();
  const { t } = useTranslation("passkeys");
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <PageHeader title={t("enrolTitle")} />
      <p className="rounded-md border bg-muted/60 px-3 py-2 text-sm" data-testid="mfa-enrolment-required">
        {required ? t("enrolRequired", { company }) : t("enrolChoice")}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("title")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p className="text-sm text-muted-foreground">{t("passkeyPitch")}</p>
            <LinkButton to="/passkeys" className="h-auto w-fit max-w-full whitespace-normal">
              {t("addTitle")}
            </LinkButton>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("authenticatorTitle")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p className="text-sm text-muted-foreground">{t("authenticatorPitch")}</p>
            <LinkButton to="/authenticatorApp" variant="outline" className="h-auto w-fit max-w-full whitespace-normal">
              {t("setUpAuthenticator")}
            </LinkButton>
          </CardContent>
        </Card>
      </div>
      {required && (
        <Form method="post" action="/logout">
          <Button type="submit" variant="link" className="h-auto p-0">
            {t("signOut")}
          </Button>
        </Form>
      )}
    </div>
  );
}
