/**
 * The endpoint form lists every event type an endpoint can subscribe to: a type outside every group
 * would never be shown (and "select all" could never be ticked), and one without a label in either
 * language would show its translation key.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_GROUPS, WEBHOOK_EVENT_TYPES, webhookEventGroup } from "./webhooks";

const labels = (lang: "en" | "es") => JSON.parse(readFileSync(new URL(`../locales/${lang}/webhooks.json`, import.meta.url), "utf8")) as Record<string, string>;

describe("webhook event types on the endpoint form", () => {
  it("every type falls in a group the form lists", () => {
    expect(WEBHOOK_EVENT_TYPES.filter((t) => !(WEBHOOK_EVENT_GROUPS as readonly string[]).includes(webhookEventGroup(t)))).toEqual([]);
  });

  it.each(["en", "es"] as const)("every type and group has a label in %s", (lang) => {
    const text = labels(lang);
    const keys = [...WEBHOOK_EVENT_TYPES.map((t) => `type.${t}`), ...WEBHOOK_EVENT_GROUPS.map((g) => `group.${g}`)];
    expect(keys.filter((k) => !text[k])).toEqual([]);
  });
});
