import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { switchLanguage } from "./remember-language";

/** The title, the language switch and, when signed in, sign-out behind a confirmation. */
export function PhoneHeader({ signedIn, onSignOut }: { signedIn: boolean; onSignOut: () => Promise<void> }) {
  const { t, i18n } = useTranslation("mobile");
  const [confirmOut, setConfirmOut] = useState(false);
  const language = i18n.language?.startsWith("es") ? "es" : "en";
  // The page's language follows the app's own switch (the document was served in the stored one).
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return (
    <header className="flex items-center justify-between gap-2">
      <h1 className="text-xl font-semibold">{t("title")}</h1>
      <div className="flex gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => switchLanguage(i18n, language === "es" ? "en" : "es")} aria-label={t("switchLanguage")}>
          {language === "es" ? "EN" : "ES"}
        </Button>
        {signedIn && (
          <Button type="button" variant="outline" size="sm" onClick={() => setConfirmOut(true)}>
            {t("signOut")}
          </Button>
        )}
      </div>
      <Dialog open={confirmOut} onOpenChange={setConfirmOut}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t("signOutTitle")}</DialogTitle>
            <DialogDescription>{t("signOutBody")}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setConfirmOut(false)}>
              {t("cancel")}
            </Button>
            <Button
              type="button"
              variant="destructive"
              onClick={() => {
                setConfirmOut(false);
                void onSignOut();
              }}
            >
              {t("signOut")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </header>
  );
}
