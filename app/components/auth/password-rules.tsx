import { useTranslation } from "react-i18next";

const RULES = ["length", "lower", "upper", "digit", "special"] as const;

/** The five password requirements the spec lists (the server enforces the same rules). */
export function PasswordRules() {
  const { t } = useTranslation("auth");
  return (
    <div className="rounded-md bg-muted/60 p-3 text-sm">
      <p className="font-medium">{t("rulesTitle")}</p>
      <ul className="mt-1 list-disc pl-5 text-muted-foreground">
        {RULES.map((r) => (
          <li key={r}>{t(`rule.${r}`)}</li>
        ))}
      </ul>
    </div>
  );
}
