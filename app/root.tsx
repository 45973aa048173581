import { useEffect } from "react";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LoadingOverlay } from "~/components/loading-overlay";
import { clearToastCookieHeader, readToastCookie } from "~/utils/toast-cookie";
import { Toaster } from "~/components/toast/toaster";
import { ErrorNotice } from "~/components/shell/error-notice";
import { TooltipProvider } from "~/components/ui/tooltip";
import { fallbackLanguage, resources } from "~/i18n/config";
import { getLanguage } from "~/i18n/i18next.server";
import { useNonce } from "~/utils/nonce";
import { isProduction } from "~/utils/session.server";
import "./tailwind.css";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const lng = await getLanguage(request);
  const toast = readToastCookie(request.headers.get("Cookie"));
  const headers = toast ? { "Set-Cookie": clearToastCookieHeader({ secure: isProduction(context.cloudflare.env) }) } : undefined;
  return data({ lng, toast }, { headers });
}

/**
 * The console's name is the title of every page that has no `meta` of its own: Remix renders the
 * deepest route's meta, and a route without one inherits its parent's. A literal <title> in the
 * layout would come first in the document and hide every page's title.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: resources[data?.lng ?? fallbackLanguage]?.common?.appName ?? resources[fallbackLanguage].common.appName }];

/** The toast cookie can be set by any redirect, so the root loader (cheap: cookies only) always runs. */
export const shouldRevalidate = () => true;

/** Marks the document once React has taken it over, so tests act on a live page, not its server HTML. */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const { t } = useTranslation("common");
  const nonce = useNonce();
  return (
    <html lang={root?.lng ?? "en"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-background text-foreground antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-[100] focus:rounded focus:bg-card focus:p-2">
          {t("skipToContent")}
        </a>
        <TooltipProvider>{children}</TooltipProvider>
        <Toaster toast={root?.toast} closeLabel={t("close")} regionLabel={t("notifications")} />
        <LoadingOverlay label={t("loading")} />
        <HydrationMark />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main id="main" className="p-6">
      <ErrorNotice error={useRouteError()} className="min-h-[60vh]" />
    </main>
  );
}
