import { describe, expect, it } from "vitest";
import { companySettings } from "../../db/schema";
import { companySettingsSchema, HOT_DAYS, RETENTION_ACTIONS, settingsField } from "./settings";

const messageOf = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues[0].message;

describe("the activity log's policy", () => {
  it("takes days within the ranges, ends included, and names the range otherwise", () => {
    for (const ok of [7, 90, 180, "30"]) expect(settingsField.hotDays.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [6, 181, 90.5, "ninety", null]) expect(messageOf(settingsField.hotDays.safeParse(bad)), String(bad)).toBe("Choose from 7 to 180 days");
    for (const ok of [1, 3650, null]) expect(settingsField.retentionDays.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [0, 3651, -5, "forever"]) expect(messageOf(settingsField.retentionDays.safeParse(bad)), String(bad)).toBe("Choose from 1 to 3650 days");
    expect(settingsField.retentionAction.parse("anonymise")).toBe("anonymise");
    expect(messageOf(settingsField.retentionAction.safeParse("archive"))).toBe("Choose delete or anonymise");
  });

  it("agrees with the table: its default days at hand and its actions", () => {
    expect(companySettings.activityHotDays.default).toBe(HOT_DAYS.default);
    expect(companySettings.activityRetentionAction.enumValues).toEqual([...RETENTION_ACTIONS]);
  });

  it("leaves absent fields undefined, so the stored values stay", () => {
    for (const field of [settingsField.hotDays, settingsField.retentionDays, settingsField.retentionAction]) expect(field.parse(undefined)).toBeUndefined();
  });

  const page = { offlineReconnect: "24", defaultTimeZoneId: "1", ekeyDuration: "24", defaultCountryCode: "001", passwordExpiryMonths: "0" };

  it("reads the page's retention choice: indefinitely stores null whatever the days say, days needs them", () => {
    expect(companySettingsSchema.parse({ ...page, activityRetentionMode: "indefinitely", activityRetentionDays: "30" }).activityRetentionDays).toBeNull();
    expect(companySettingsSchema.parse({ ...page, activityRetentionMode: "days", activityRetentionDays: "30" }).activityRetentionDays).toBe(30);
    const missing = companySettingsSchema.safeParse({ ...page, activityRetentionMode: "days" });
    expect(missing.error?.issues).toEqual([expect.objectContaining({ path: ["activityRetentionDays"], message: "Choose from 1 to 3650 days" })]);
    expect(companySettingsSchema.parse(page)).not.toHaveProperty("activityRetentionMode");
    expect(companySettingsSchema.parse(page).activityRetentionDays).toBeUndefined();
  });

  it("reads the page's force firmware switch: ticked is on, unticked (nothing posted) is off", () => {
    expect(companySettingsSchema.parse({ ...page, forceFirmwareUpdate: "on" }).forceFirmwareUpdate).toBe(true);
    expect(companySettingsSchema.parse(page).forceFirmwareUpdate).toBe(false);
  });
});
