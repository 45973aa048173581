import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import wasmUrl from "~core/core.wasm?url";
import { useCore } from "~/components/ekeys/use-core";
import { HistoryList } from "~/phone/history-list";
import { KeyCard } from "~/phone/key-card";
import { PhoneApiError, phoneApi } from "~/phone/phone-api";
import { phoneStore, type HeldKeys, type HistoryRow, type PendingEvent, type PhoneSession } from "~/phone/phone-store";
import { SignInForm } from "~/phone/sign-in-form";
import { assertForConsole, forgetPlatformCredential, type UserVerification } from "~/phone/user-verification";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";

/**
 * The phone web app (docs/decisions/0028-signed-offline-credentials.md): sign-in, the keys held on the
 * phone with "open now?" and "next open" computed here by the core, presenting a key to a door, and the
 * history. Everything it shows comes from the phone's own storage, refreshed from /api/mobile while
 * online, so it keeps working offline (a service worker keeps the page itself) until credentials expire.
 * The page has no loader: the server holds nothing for it but the API.
 */
export const meta: MetaFunction = () => [{ title: "Keyless Access — Phone" }, { name: "theme-color", content: "#1d4ed8" }];
export const links: LinksFunction = () => [{ rel: "manifest", href: "/m.webmanifest" }];

const TICK_MS = 30_000;

/** Registers the service worker and hands it what this visit already loaded (the page, scripts, the core). */
function keepForOffline() {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  sw.register("/m-sw.js", { scope: "/m" }).catch(() => undefined);
  void sw.ready.then((reg) => reg.active?.postMessage({ keep: ["/m", "/m.webmanifest", "/favicon.svg", wasmUrl, ...pageAssets()] }));
}

/** The scripts and styles this page runs on: what the document links, and the modules of its routes in Remix's manifest. */
function pageAssets(): string[] {
  const linked = [...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>("link[rel=modulepreload], link[rel=stylesheet], script[src]")].map((e) =>
    "href" in e ? e.href : e.src,
  );
  type Part = { module?: string; imports?: string[]; css?: string[] };
  const manifest = (window as unknown as { __remixManifest?: { entry: Part; routes: Record<string, Part> } }).__remixManifest;
  const parts = manifest ? [manifest.entry, manifest.routes.root, manifest.routes["routes/m"]] : [];
  const modules = parts.flatMap((p) => (p ? [p.module, ...(p.imports ?? []), ...(p.css ?? [])] : [])).filter((u): u is string => Boolean(u));
  return [...new Set([...linked, ...modules])].filter((u) => new URL(u, location.href).pathname.startsWith("/assets/"));
}

export default function PhoneApp() {
  const { t, i18n } = useTranslation("mobile");
  const core = useCore();
  const [session, setSession] = useState<PhoneSession | null>(null);
  const [held, setHeld] = useState<HeldKeys | null>(null);
  const [history, setHistory] = useState<HistoryRow[]>([]);
  const [online, setOnline] = useState(true);
  const [now, setNow] = useState(() => Date.now());
  const [loaded, setLoaded] = useState(false);
  const [confirmOut, setConfirmOut] = useState(false);
  const [bioRefused, setBioRefused] = useState<UserVerification | null>(null);

  useEffect(() => {
    setSession(phoneStore.session());
    setHeld(phoneStore.keys());
    setHistory(phoneStore.history());
    setOnline(navigator.onLine);
    setLoaded(true);
    keepForOffline();
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener("online", up);
    window.addEventListener("offline", down);
    const tick = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => {
      window.removeEventListener("online", up);
      window.removeEventListener("offline", down);
      clearInterval(tick);
    };
  }, []);

  const signOutLocally = useCallback(() => {
    phoneStore.clear();
    forgetPlatformCredential();
    setSession(null);
    setHeld(null);
    setHistory([]);
  }, []);

  /** Fresh keys and credentials, history, and the unlock attempts made while offline. */
  const refresh = useCallback(
    async (s: PhoneSession) => {
      try {
        const pending = phoneStore.pending();
        if (pending.length) {
          await phoneApi.report(s.token, pending);
          phoneStore.setPending([]);
        }
        const keys = await fetchKeys(s);
        if (!keys) return;
        if (keys.settings.biometricRequired !== s.settings.biometricRequired) {
          const updated = { ...s, settings: keys.settings };
          phoneStore.setSession(updated);
          setSession(updated);
        }
        const stored = { keys: keys.keys, fetchedAt: keys.now, refreshBy: keys.refreshBy };
        phoneStore.setKeys(stored);
        setHeld(stored);
        const rows = (await phoneApi.activity(s.token)).payload.rows;
        phoneStore.setHistory(rows);
        setHistory(rows);
        setNow(Date.now());
      } catch (e) {
        // Signed out elsewhere (forgotten phone, de-activated account): what the phone held is no longer its own.
        if (e instanceof PhoneApiError && e.status === 401) signOutLocally();
      }
    },
    [signOutLocally],
  );

  /**
   * Keys with fresh credentials. With biometrics required (or newly so, which the console says), the phone
   * verifies its user over a console challenge and the console signs only after checking that; a refusal
   * keeps the keys already held and says why.
   */
  async function fetchKeys(s: PhoneSession) {
    if (!s.settings.biometricRequired) {
      try {
        return (await phoneApi.keys(s.token)).payload;
      } catch (e) {
        if (!(e instanceof PhoneApiError && e.code === "biometric-required")) throw e;
      }
    }
    const r = await assertForConsole(s.token, s.userName);
    if ("refused" in r) {
      setBioRefused(r.refused);
      return null;
    }
    try {
      const keys = (await phoneApi.keysVerified(s.token, r.assertion)).payload;
      setBioRefused(null);
      return keys;
    } catch (e) {
      if (e instanceof PhoneApiError && e.status === 403) {
        setBioRefused("refused");
        return null;
      }
      throw e;
    }
  }

  useEffect(() => {
    if (session && online) void refresh(session);
  }, [session, online, refresh]);

  function recordResult(e: PendingEvent) {
    phoneStore.setPending([...phoneStore.pending(), e]);
    if (session && navigator.onLine) void refresh(session);
  }

  async function signOut() {
    setConfirmOut(false);
    if (session && navigator.onLine) await phoneApi.logout(session.token).catch(() => undefined);
    signOutLocally();
  }

  const language = i18n.language?.startsWith("es") ? "es" : "en";
  // The page's language follows the app's own switch (the document was served in the stored one).
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-md flex-col gap-4 p-4">
      <header className="flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{t("title")}</h1>
        <div className="flex gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => i18n.changeLanguage(language === "es" ? "en" : "es")} aria-label={t("switchLanguage")}>
            {language === "es" ? "EN" : "ES"}
          </Button>
          {session && (
            <Button type="button" variant="outline" size="sm" onClick={() => setConfirmOut(true)}>
              {t("signOut")}
            </Button>
          )}
        </div>
      </header>
      {!online && (
        <p role="status" className="rounded-md border border-warning/50 bg-warning/15 p-3 text-sm" data-testid="offline-banner">
          {t("offline")}
        </p>
      )}
      {!loaded ? null : !session ? (
        <section aria-labelledby="sign-in-title" className="rounded-lg border bg-card p-4">
          <h2 id="sign-in-title" className="mb-4 text-lg font-semibold">
            {t("signInTitle")}
          </h2>
          <SignInForm onSignedIn={setSession} />
        </section>
      ) : (
        <Tabs defaultValue="keys">
          <TabsList aria-label={t("sections")}>
            <TabsTrigger value="keys">{t("myKeys")}</TabsTrigger>
            <TabsTrigger value="history">{t("history")}</TabsTrigger>
          </TabsList>
          <TabsContent value="keys" className="space-y-3">
            <p className="text-sm text-muted-foreground">{t("signedInAs", { name: session.displayName, company: session.companyId })}</p>
            {session.settings.biometricRequired && <p className="text-sm">{t("biometricRequired")}</p>}
            {bioRefused && (
              <div role="alert" className="space-y-2 text-sm font-medium text-destructive" data-testid="refresh-verification-refused">
                <p>{bioRefused === "unavailable" ? t("verificationUnavailable") : t("refreshVerificationRefused")}</p>
                {online && (
                  <Button type="button" variant="outline" size="sm" onClick={() => void refresh(session)}>
                    {t("verifyAgain")}
                  </Button>
                )}
              </div>
            )}
            {held && held.refreshBy <= now && (
              <p role="status" className="text-sm font-medium text-destructive">
                {t("reconnectNeeded")}
              </p>
            )}
            {!core || !held ? (
              <p role="status">{t("loadingKeys")}</p>
            ) : held.keys.length === 0 ? (
              <EmptyState title={t("noKeys")} />
            ) : (
              <ul className="space-y-3" aria-label={t("myKeys")}>
                {held.keys.map((k) => (
                  <KeyCard key={`${k.kind}-${k.id}`} core={core} heldKey={k} now={now} onResult={recordResult} verification={session.settings.biometricRequired} />
                ))}
              </ul>
            )}
          </TabsContent>
          <TabsContent value="history">
            <HistoryList rows={history} />
          </TabsContent>
        </Tabs>
      )}
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
            <Button type="button" variant="destructive" onClick={signOut}>
              {t("signOut")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </main>
  );
}
