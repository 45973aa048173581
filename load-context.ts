import type { PlatformProxy } from "wrangler";

type Cloudflare = Omit<PlatformProxy<Env>, "dispose">;

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: Cloudflare;
  }
}

type GetLoadContext = (args: { request: Request; context: { cloudflare: Cloudflare } }) => { cloudflare: Cloudflare };

export const getLoadContext: GetLoadContext = ({ context }) => context;
