import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { publicKeySet } from "~/services/credential-keys.server";

/**
 * The public keys that verify offline credentials (a JWKS of Ed25519 keys with their `kid`), for gateways,
 * boards and tools. Public by design; cached briefly so a rotation reaches readers within minutes.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const jwks = await publicKeySet(context.cloudflare.env);
  return new Response(JSON.stringify(jwks), {
    headers: { "Content-Type": "application/jwk-set+json; charset=utf-8", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}
