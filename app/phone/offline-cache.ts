import wasmUrl from "~core/core.wasm?url";

/** Registers the service worker and hands it what this visit already loaded (the page, scripts, the core). */
export function keepForOffline() {
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
