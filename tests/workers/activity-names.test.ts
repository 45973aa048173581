import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import en from "~/locales/en/activity.json";
import es from "~/locales/es/activity.json";

/**
 * Every event of the catalogue (activity_types, as the migrations leave it) has its name in both
 * languages: the activity log, its details and the alert form's activity picker show `name.<event>`,
 * and a missing one showed the English name on the Spanish pages ("Device Configured", "FAQ Created").
 */
describe("activity catalogue names", () => {
  it("each event has an English and a Spanish name", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM activity_types ORDER BY name").all<{ name: string }>();
    expect(results.length).toBeGreaterThan(50);
    const texts: Record<string, Record<string, unknown>> = { en, es };
    const missing = results.flatMap(({ name }) => (["en", "es"] as const).filter((lng) => typeof texts[lng][`name.${name}`] !== "string").map((lng) => `${lng}: ${name}`));
    expect(missing).toEqual([]);
  });
});
