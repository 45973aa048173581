import i18next, { type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import en from "~/locales/en/activity.json";
import es from "~/locales/es/activity.json";
import type { ActivityRow } from "~/services/activity.server";
import { activityLabel, summaryText } from "./activity-text";

// The e-key entries store the access type's code ("Front Door: custom_access"); the log must never show it.
const t: Record<"en" | "es", TFunction> = {} as never;
beforeAll(async () => {
  for (const lng of ["en", "es"] as const) {
    const i = i18next.createInstance();
    await i.init({ lng, resources: { en: { activity: en }, es: { activity: es } }, defaultNS: "activity", interpolation: { escapeValue: false } });
    t[lng] = i.t;
  }
});

const device = { id: 7, displayName: "W6", fullName: "West Door", sensor1OpenName: "", sensor1CloseName: "", sensor2OpenName: "", sensor2CloseName: "" };
const row = (name: string, summary: string, over: Partial<ActivityRow> = {}) =>
  ({
    activityName: name,
    activityType: { name, type: "User", alertConditions: "000", firstSectionInfo: "", detailsSectionInfo: "" },
    details: {},
    summary,
    targetDevice: null,
    targetDeviceGroup: null,
    ...over,
  }) as ActivityRow;

describe("e-key activity summaries", () => {
  it.each([
    ["en", "eKey Assigned", "Front Door: custom_access", { targetDevice: device }, "West Door: Custom access"],
    ["es", "eKey Assigned", "Front Door: custom_access", { targetDevice: device }, "West Door: Acceso personalizado"],
    ["es", "eKey Modified", "Office hours: one_time_access", { targetDeviceGroup: { id: 3, fullName: "Office hours", displayName: "OH" } }, "Office hours: Acceso de un solo uso"],
    ["es", "eKey Removed", "full_access", {}, "Acceso completo"],
    // a removed door keeps the name the entry stored
    ["es", "eKey Assigned", "Old Door: full_access", {}, "Old Door: Acceso completo"],
  ] as const)("%s %s %s", (lng, name, summary, over, expected) => {
    const text = summaryText(t[lng], row(name, summary, over));
    expect(text).toBe(expected);
    expect(text).not.toMatch(/_access/);
  });

  it("leaves a summary that is not an access code as it was written", () => {
    expect(summaryText(t.es, row("eKey Assigned", "free text"))).toBe("free text");
  });

  it("names the event in Spanish", () => {
    expect(activityLabel(t.es, row("eKey Assigned", ""))).toBe("eKey asignada");
  });
});
