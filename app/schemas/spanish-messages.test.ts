/**
 * Every message a form can show has a Spanish text. The messages are the spec's English texts (the
 * admin API returns them as they are); a page translates them by their text in its feature's
 * namespace, then `messages`, then zod's own texts by shape (`translateMessage`). They are gathered
 * from every schema module, by parsing each part of each exported schema with failing values
 * (templated texts such as "Full name is too long (at most 100 characters)" come out filled in),
 * and from the message constants of the schemas and of the services that throw them.
 */
import { readFileSync } from "node:fs";
import { createInstance } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { i18nConfig } from "~/i18n/config";
import { translateMessage } from "~/i18n/messages";
import { constantMessages, schemasOf, zodMessages } from "./zod-messages";

const schemaModules = import.meta.glob<Record<string, unknown>>(["./*.ts", "!./*.test.ts", "!./zod-messages.ts"], { eager: true });

/** The namespaces of the pages that show a schema module's messages (a new module must be placed here). */
const SCHEMA_NS: Record<string, string[]> = {
  activity: ["activity"],
  // The operators' backfill is an API call of the platform root's; no page shows its messages.
  "activity-backfill": [],
  "alert-form": ["alerts"],
  alerts: ["alerts"],
  "api-keys": ["apiKeys"],
  auth: ["auth"],
  authenticator: ["authenticator"],
  bulk: ["devices", "users"],
  "cell-records": ["cells"],
  cells: ["companies"],
  companies: ["companies"],
  "company-requests": ["requests"],
  "custom-fields": ["customFields"],
  sso: ["sso"],
  "visitor-passes": ["visitorPasses"],
  "device-commands": ["devices"],
  "device-filters": ["devices"],
  "device-groups": ["groups"],
  "device-lifecycle": ["lifecycle"],
  "device-types": ["deviceTypes"],
  holidays: ["holidays"],
  "door-alarms": ["alarms"],
  lockdown: ["lockdown"],
  "mfa-policy": ["passkeys"],
  passkeys: ["passkeys"],
  directory: ["directory"],
  webhooks: ["webhooks"],
  ekeys: ["users"],
  firmware: ["ota"],
  "firmware-start": ["mobile", "devices"],
  flag: [],
  fleet: ["fleet"],
  "support-access": ["supportAccess"],
  "firmware-rollouts": ["ota"],
  invoices: ["invoices"],
  mailer: ["mailer"],
  mobile: ["mobile"],
  "phone-webauthn": ["mobile"],
  phone: ["companies", "requests"],
  roles: ["roles"],
  search: ["groups", "users"],
  settings: ["settings"],
  support: ["support"],
  text: [],
  "url-filters": [],
  users: ["users"],
  "user-import": ["userImport"],
  week: [],
};

/**
 * Services whose message constants (refusals, toasts) pages show, by the namespace of those pages. The
 * bulk actions' row results are shown through their own keys (`bulk.done.*`), not by their text.
 * Activity, device types and roles keep all their messages in their schema module's constant, checked above.
 */
const SERVICES: [string, string][] = [
  ["auth", "auth"],
  ["authenticator", "authenticator"],
  ["cells", "companies"],
  ["companies", "companies"],
  ["company-requests", "requests"],
  ["device-groups", "groups"],
  ["firmware", "ota"],
  ["mailer", "mailer"],
  ["mfa-policy", "passkeys"],
  ["passkeys", "passkeys"],
  ["users", "users"],
];

/**
 * The fixed texts of a service's exported message constants and of the refusals it writes out in
 * place (`new ServiceError(422, "...")`), read from its source: the services reach the Workers
 * runtime (sockets, bindings), which a Node test does not load.
 */
function serviceMessages(name: string): string[] {
  const src = readFileSync(new URL(`../services/${name}.server.ts`, import.meta.url), "utf8");
  const blocks = [...src.matchAll(/^export const \w*(?:MSG|MESSAGES?) = \{\n([\s\S]*?)\n\}/gm)].map((m) => m[1]);
  const inPlace = [...src.matchAll(/ServiceError\(\d+, "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
  return [...blocks.flatMap((b) => [...b.matchAll(/^\s+\w+: "((?:[^"\\]|\\.)*)",?$/gm)].map((m) => m[1])), ...inPlace].map((m) => JSON.parse(`"${m}"`) as string);
}

/** Spanish only: an English text found through the fallback language must not pass for a translation. */
const es = createInstance();
beforeAll(() => es.init({ ...i18nConfig, lng: "es", fallbackLng: false, resources: { es: i18nConfig.resources.es } }));

/** The messages in `messages` with no Spanish text on a page of namespace `ns`. */
function untranslated(messages: Iterable<string>, ns: string) {
  return [...new Set(messages)].filter((m) => translateMessage(es.t, m, ns) === m && !es.exists(m, { ns: [ns, "messages"], keySeparator: false, nsSeparator: false }));
}

describe("messages a user can meet on a Spanish page", () => {
  it("every schema module is placed in a namespace", () => {
    const names = Object.keys(schemaModules).map((p) => p.replace(/^\.\/(.*)\.ts$/, "$1"));
    expect(names.filter((n) => !SCHEMA_NS[n])).toEqual([]);
    expect(names.length).toBeGreaterThan(20);
  });

  for (const [path, mod] of Object.entries(schemaModules)) {
    const name = path.replace(/^\.\/(.*)\.ts$/, "$1");
    for (const ns of SCHEMA_NS[name] ?? []) {
      it(`${name}: every message its schemas and constants can give has a Spanish text in "${ns}"`, () => {
        const messages = [...constantMessages(mod), ...schemasOf(mod).flatMap((s) => [...zodMessages(s)])];
        expect(untranslated(messages, ns)).toEqual([]);
      });
    }
  }

  for (const [name, ns] of SERVICES) {
    it(`${name} service: its messages have a Spanish text in "${ns}"`, () => {
      const messages = serviceMessages(name);
      expect(messages.length).toBeGreaterThan(0);
      expect(untranslated(messages, ns)).toEqual([]);
    });
  }

  it("zod's own texts come out in Spanish, with their numbers", () => {
    expect(translateMessage(es.t, "String must contain at most 100 character(s)", "users")).toBe("Como máximo 100 caracteres");
    expect(translateMessage(es.t, "Number must be greater than 0", "users")).toBe("Debe ser mayor que 0");
    expect(translateMessage(es.t, "Invalid enum value. Expected 'a' | 'b', received 'c'", "users")).toBe("Valor no válido");
    expect(translateMessage(es.t, "Required", "alerts")).toBe("Obligatorio");
  });
});
