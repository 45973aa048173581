import { useTranslation } from "react-i18next";
import { PASSWORD_RULES } from "~/utils/password-rules";
import { cn } from "~/utils/cn";

/** The five password requirements the spec lists, each ticked as soon as `password` meets it (the server enforces the same rules). */
export function PasswordRules({ password }: { password: string }) {
  const { t } = useTranslation("auth");
  return (
    <div className="rounded-md bg-muted/60 p-3 text-sm" data-testid="password-rules">
      <p className="font-medium" id="password-rules-title">
        {t("rulesTitle")}
      </p>
      <ul className="mt-1 space-y-0.5" aria-labelledby="password-rules-title">
        {PASSWORD_RULES.map((r) => {
          const met = r.test(password);
          return (
            <li key={r.key} data-met={met} className={cn("flex items-center gap-2", met ? "text-success" : "text-muted-foreground")}>
              <span aria-hidden="true" className="w-4 text-center">
                {met ? "✓" : "○"}
              </span>
              <span>{t(`rule.${r.key}`)}</span>
              <span className="sr-only">({t(met ? "rule.met" : "rule.unmet")})</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
