import { forwardRef, useState, type InputHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { Input } from "~/components/ui/input";

/** A password field with a show/hide toggle that screen readers announce. */
export const PasswordInput = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function PasswordInput(props, ref) {
  const { t } = useTranslation("auth");
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <Input ref={ref} {...props} type={shown ? "text" : "password"} className="pr-16" />
      <button
        type="button"
        onClick={() => setShown((s) => !s)}
        aria-pressed={shown}
        aria-label={shown ? t("hidePassword") : t("showPassword")}
        className="absolute inset-y-0 right-0 px-3 text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {shown ? t("hide") : t("show")}
      </button>
    </div>
  );
});
