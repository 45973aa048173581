import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { LinkButton } from "~/components/ui/link-button";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth/auth-card";
import { getLanguage } from "~/i18n/i18next.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return { lng: await getLanguage(request) };
}

export default function Terms() {
  const { lng } = useLoaderData<typeof loader>();
  const { t } = useTranslation("auth");
  return (
    <AuthCard title={t("termsTitle")} lng={lng}>
      <div className="space-y-3 text-sm text-muted-foreground">
        <p>{t("termsBody1")}</p>
        <p>{t("termsBody2")}</p>
      </div>
      <LinkButton variant="link" size="inline" to="/login" className="mt-4 block text-center">
        {t("backToLogin")}
      </LinkButton>
    </AuthCard>
  );
}
