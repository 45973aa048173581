import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { PhoneApp } from "~/phone/phone-app";

/** The phone web app's page (its parts: app/phone/). It has no loader: the server holds nothing for it but /api/mobile. */
export const meta: MetaFunction = () => [{ title: "Keyless Access — Phone" }, { name: "theme-color", content: "#1d4ed8" }];
export const links: LinksFunction = () => [{ rel: "manifest", href: "/m.webmanifest" }];

export default PhoneApp;
