import type { PlatformProxy } from "wrangler";
import type { Core } from "~core";

type Cloudflare = Omit<PlatformProxy<Env>, "dispose">;

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: Cloudflare;
    /** The access-window core (core-wasm), instantiated once per isolate. */
    core: Core;
  }
}

type GetLoadContext = (args: { request: Request; context: { cloudflare: Cloudflare; core: Core } }) => {
  cloudflare: Cloudflare;
  core: Core;
};

export const getLoadContext: GetLoadContext = ({ context }) => context;
