/**
 * Where the identity provider's page posts its LogoutResponse after single logout (HTTP-POST, decision 0122).
 * The console's own session ended before the browser left for the IdP, so this only lands on the sign-in page;
 * nothing here acts on what is posted.
 */
import { redirect } from "@remix-run/cloudflare";

export const action = () => redirect("/login");
export const loader = () => redirect("/login");
