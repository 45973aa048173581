import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { createInstance } from "i18next";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./i18n/config";
import { getLanguage } from "./i18n/i18next.server";
import { pageCsp } from "./utils/http.server";
import { NonceProvider } from "./utils/nonce";

/** A fresh random nonce for this page's scripts (base64 of 16 bytes). */
function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext, loadContext: AppLoadContext) {
  const nonce = newNonce();
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({ ...i18nConfig, lng: await getLanguage(request) });

  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </I18nextProvider>
    </NonceProvider>,
    {
      nonce,
      signal: request.signal,
      onError(error: unknown) {
        console.error(error);
        responseStatusCode = 500;
      },
    },
  );
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;
  responseHeaders.set("Content-Type", "text/html");
  responseHeaders.set("X-Frame-Options", "DENY");
  responseHeaders.set("Referrer-Policy", "same-origin");
  responseHeaders.set("Content-Security-Policy", pageCsp(nonce, loadContext.cloudflare.env));
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
