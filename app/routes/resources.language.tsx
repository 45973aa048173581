import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { isLanguage } from "~/i18n/config";
import { languageCookie } from "~/i18n/i18next.server";
import { safeRedirect } from "~/utils/redirect";

/** Stores the language choice and reloads the page the user was on (spec: switching reloads). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const lng = form.get("lng");
  const safe = safeRedirect(form.get("redirectTo"));
  if (!isLanguage(lng)) return redirect(safe);
  return redirect(safe, { headers: { "Set-Cookie": await languageCookie.serialize(lng) } });
}

export const loader = () => redirect("/");
