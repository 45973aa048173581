import { vitePlugin as remix, cloudflareDevProxyVitePlugin } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ command }) => ({
  plugins: [
    // Bindings for `remix vite:dev` only: a build needs none, and starting the proxy (a workerd that
    // cannot host our Durable Objects) printed two warnings per build that local Durable Objects fail.
    command === "serve" && cloudflareDevProxyVitePlugin(),
    remix({
      // Server code that only its route uses sits beside it as `<name>.server.ts` (docs/CONVENTIONS.md): not a route.
      ignoredRouteFiles: ["**/.*", "**/*.server.*", "**/*.test.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: false,
      },
    }),
    tailwindcss(),
    tsconfigPaths(),
  ],
  ssr: { resolve: { conditions: ["workerd", "worker", "browser"] } },
  resolve: { mainFields: ["browser", "module", "main"] },
  // cloudflare:sockets (SMTP) is a Workers built-in that the runtime provides.
  build: { minify: true, rollupOptions: { external: ["cloudflare:sockets"] } },
}));
