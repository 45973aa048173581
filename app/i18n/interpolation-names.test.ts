import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { deviceSettingItems } from "~/components/devices/device-settings";
import type { DeviceDetails } from "~/services/devices.server";
import { i18nConfig, resources } from "./config";

/**
 * i18next reads some keys of `t(key, options)` as its own options: `{ lng: "-3.7" }` switches the
 * language (a Spanish page then showed "40.4, -3.7 at …" and "Language: English"). A placeholder
 * must never carry one of these names.
 */
const OPTION_NAMES = [
  "lng",
  "lngs",
  "ns",
  "context",
  "defaultValue",
  "ordinal",
  "replace",
  "fallbackLng",
  "keyPrefix",
  "postProcess",
  "returnObjects",
  "returnDetails",
  "joinArrays",
  "interpolation",
  "skipInterpolation",
  "nsSeparator",
  "keySeparator",
];

describe("locale placeholders", () => {
  it("never use a name i18next takes as an option", () => {
    const clashes: string[] = [];
    for (const [lng, namespaces] of Object.entries(resources))
      for (const [ns, texts] of Object.entries(namespaces))
        for (const [key, text] of Object.entries(texts))
          if (typeof text === "string")
            for (const [, name] of text.matchAll(/\{\{\s*([\w]+)/g)) if (OPTION_NAMES.includes(name)) clashes.push(`${lng}/${ns}.json ${key}: {{${name}}}`);
    expect(clashes).toEqual([]);
  });
});

describe("device details and header in Spanish", () => {
  const es = i18next.createInstance();
  const ready = es.init({ ...i18nConfig, lng: "es" });

  it("the header's language switch", async () => {
    await ready;
    expect(es.t("menu.language", { ns: "common", language: "English" })).toBe("Idioma: English");
  });

  it("a device's last reported location", async () => {
    await ready;
    const device = {
      fullName: "Archive",
      relockTrigger: "Door Close",
      manualLock: true,
      sleepMode: false,
      lowBattery: false,
      lastLatitude: 40.473871,
      lastLongitude: -3.722671,
      lastLocationAt: new Date("2026-11-16T12:45:51Z"),
    } as unknown as DeviceDetails["device"];
    const items = deviceSettingItems(es.getFixedT("es", "devices"), device, "Bluetooth Lock", false, false, "Europe/Madrid", "es");
    expect(items.find((i) => i.key === "location")?.value).toBe("40.47387, -3.72267 el 16/11/2026 13:45:51 CET");
    // The stored trigger code reads in Spanish too.
    expect(items.find((i) => i.key === "relockTrigger")?.value).toBe("Cierre de puerta");
  });
});
