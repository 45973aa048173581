import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCore } from "~/components/ekeys/use-core";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { CodeForm } from "./code-form";
import { FirmwareUpdates } from "./firmware-updates";
import { GuestPassSection, useGuestPass } from "./guest-pass";
import { HistoryList } from "./history-list";
import { KeysTab } from "./keys-tab";
import { LockdownSection } from "./lockdown-section";
import { PhoneHeader } from "./phone-header";
import { storePendingLanguage } from "./remember-language";
import { phoneStore, type CodeStep, type PhoneSession } from "./phone-store";
import { SignInForm } from "./sign-in-form";
import { usePhoneSession } from "./use-phone-session";

/**
 * The phone web app (docs/decisions/0028-signed-offline-credentials.md): sign-in, the keys held on the
 * phone with "open now?" and "next open" computed here by the core, presenting a key to a door, and the
 * history, the firmware updates of the keys' doors, and the lockdown plans its user may start (with the one in force). A company that requires two-factor authentication gets the code step after the password. Everything it shows comes from the phone's own storage, refreshed from /api/mobile while
 * online, so it keeps working offline (a service worker keeps the page itself) until credentials expire.
 * A guest's link (`/m#pass=…`) shows their visitor pass instead, with no account (guest-pass.tsx).
 */
export function PhoneApp() {
  const { t } = useTranslation("mobile");
  const core = useCore();
  const { session, setSession, held, history, online, now, loaded, bioRefused, firmware, lockdown, refresh, refreshFirmware, recordResult, signOut } = usePhoneSession();
  const guest = useGuestPass(online);
  const [codeStep, setCodeStep] = useState<CodeStep | null>(null);
  useEffect(() => setCodeStep(phoneStore.codeStep()), []);
  useEffect(() => {
    if (online) storePendingLanguage();
  }, [online]);
  const toCodeStep = (step: CodeStep | null) => {
    phoneStore.setCodeStep(step);
    setCodeStep(step);
  };
  const signedIn = (s: PhoneSession) => {
    toCodeStep(null);
    setSession(s);
  };
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-md flex-col gap-4 p-4">
      <PhoneHeader signedIn={session !== null} onSignOut={signOut} />
      {!online && (
        <p role="status" className="rounded-md border border-warning/50 bg-warning/15 p-3 text-sm" data-testid="offline-banner">
          {t("offline")}
        </p>
      )}
      {core && guest.loaded && <GuestPassSection core={core} now={now} held={guest.held} refusal={guest.refusal} />}
      {/* A guest holding a pass has no account to sign in to. */}
      {!loaded || (!session && guest.held) ? null : !session ? (
        <section aria-labelledby="sign-in-title" className="rounded-lg border bg-card p-4">
          <h2 id="sign-in-title" className="mb-4 text-lg font-semibold">
            {codeStep ? t("codeTitle") : t("signInTitle")}
          </h2>
          {codeStep ? <CodeForm step={codeStep} onStep={toCodeStep} onSignedIn={signedIn} /> : <SignInForm onSignedIn={signedIn} onCodeStep={toCodeStep} />}
        </section>
      ) : (
        <>
          <LockdownSection lockdown={lockdown} token={session.token} online={online} onChanged={() => refresh(session)} />
          <Tabs defaultValue="keys">
            <TabsList aria-label={t("sections")}>
              <TabsTrigger value="keys">{t("myKeys")}</TabsTrigger>
              <TabsTrigger value="history">{t("history")}</TabsTrigger>
            </TabsList>
            <TabsContent value="keys" className="space-y-3">
              <KeysTab
                session={session}
                held={held}
                core={core}
                now={now}
                online={online}
                bioRefused={bioRefused}
                onVerifyAgain={() => void refresh(session)}
                onResult={recordResult}
              />
              <FirmwareUpdates firmware={firmware} token={session.token} online={online} onStarted={() => refreshFirmware(session).catch(() => undefined)} />
            </TabsContent>
            <TabsContent value="history">
              <HistoryList rows={history} />
            </TabsContent>
          </Tabs>
        </>
      )}
    </main>
  );
}
