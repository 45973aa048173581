import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The public screens' frame: product name, a language selector and the form card. */
export function AuthCard({ title, lng, children }: { title: string; lng: string; children: ReactNode }) {
  const { t } = useTranslation("auth");
  const location = useLocation();
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-md space-y-4">
        <div className="flex items-center justify-between">
          <p className="flex items-center gap-2 text-lg font-semibold text-primary">
            <span aria-hidden="true" className="grid size-8 place-items-center rounded-md bg-primary text-primary-foreground">
              K
            </span>
            {t("common:appName")}
          </p>
          <Form method="post" action="/resources/language" reloadDocument className="flex items-center gap-2">
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            <label htmlFor="language" className="text-sm text-muted-foreground">
              {t("language")}
            </label>
            <select
              id="language"
              name="lng"
              defaultValue={lng}
              onChange={(e) => e.currentTarget.form?.requestSubmit()}
              className="rounded-md border border-border bg-card px-2 py-1 text-sm"
              data-testid="language-select"
            >
              <option value="en">English</option>
              <option value="es">Español</option>
            </select>
            <noscript>
              <button type="submit">{t("apply")}</button>
            </noscript>
          </Form>
        </div>
        <section className="rounded-xl border border-border bg-card p-6 shadow-sm" aria-labelledby="auth-title">
          <h1 id="auth-title" className="mb-4 text-xl font-semibold">
            {title}
          </h1>
          {children}
        </section>
      </div>
    </main>
  );
}
