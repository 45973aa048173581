/** A company's SAML SP metadata (decision 0122): what its identity provider is configured from. Public, as metadata is. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { samlCompany, samlMetadata, spOrigin } from "~/services/sso/saml.server";
import { getDb } from "~/utils/db.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const env = context.cloudflare.env;
  const found = await samlCompany(getDb(context), params.companyCode ?? "");
  if (!found) return new Response("Not found", { status: 404 });
  const xml = samlMetadata(env, spOrigin(env, request), found.company.code, found.settings);
  return new Response(xml, { headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8", "Cache-Control": "no-store" } });
}
