import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { adminApi, clockTag, expect, keepScreenshot, runNow, test, unique } from "./fixtures";

// A denial made the way a real one arrives: the gateway posts the board's access.denied event with
// its reason code (gateway/PROTOCOL.md "Denial codes"). ACME's zone is Europe/Madrid.
// A granted access a second earlier sits just below it in the log.
async function postDenial(request: import("@playwright/test").APIRequestContext, deviceId: number, at: number) {
  const credential = { kind: "fob", id: `fob-${unique()}` };
  const res = await request.post("/api/gateway/events", {
    headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` },
    data: {
      v: 1,
      events: [
        { id: `${deviceId}/gw/acc.e2e-${unique()}`, deviceId: String(deviceId), type: "access.granted", at: at - 1000, data: { credential } },
        {
          id: `${deviceId}/gw/acc.e2e-${unique()}`,
          deviceId: String(deviceId),
          type: "access.denied",
          at,
          data: { credential, code: "no_key", reason: "No key for this door", nextOpen: null },
        },
      ],
    },
  });
  expect(res.status()).toBe(200);
  expect((await res.json()).accepted).toBe(2);
}

/**
 * How the log writes an instant in ACME's zone: `mm/dd/yyyy hh:mm:ss` (the demo company's date format) and the zone's name for the
 * offset in force then (CET at +01:00, CEST at +02:00).
 */
function madridLabel(at: number, lang: "en" | "es"): string {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Madrid",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  });
  const p = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  const zone = { "GMT+01:00": "CET", "GMT+02:00": "CEST" }[p.timeZoneName];
  if (!zone) throw new Error(`Europe/Madrid is at ${p.timeZoneName}`);
  const day = lang === "es" ? `${p.day}/${p.month}/${p.year}` : `${p.month}/${p.day}/${p.year}`;
  return `${day} ${p.hour}:${p.minute}:${p.second} ${zone}`;
}

/** The computed text colour of an element. */
const colour = (el: import("@playwright/test").Locator) => el.evaluate((e) => getComputedStyle(e).color);

for (const lang of ["en", "es"] as const) {
  const text = {
    en: { title: "Activity", denied: "Access Denied", mark: "Denied", granted: "Granted", reason: "Denied: No key for this door", reasonLabel: "Reason" },
    es: {
      title: "Actividad",
      denied: "Acceso denegado",
      mark: "Denegado",
      granted: "Concedido",
      reason: "Denegado: No tiene llave para esta puerta",
      reasonLabel: "Motivo",
    },
  }[lang];

  test(`a denied access shows its reason, translated names and labelled times (${lang})`, { tag: clockTag(lang) }, async ({ page, request, loginAs }) => {
    const api = await adminApi(request);
    const options = await api.call<{ payload: { devices: { id: number; name: string }[] } }>("GET", "/user/getActivityOptions");
    const device = options.payload.devices[0];
    const at = Math.floor(runNow() / 1000) * 1000;
    await postDenial(request, device.id, at);

    await loginAs("acme", lang);
    await page.goto(`/activity?id=${device.id}&type=Device`);
    await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();
    const first = page.locator("tbody tr").first();
    // Icon and word, not colour alone; the name is translated; the reason comes from the code, once.
    await expect(first.locator('[data-mark="denied"]')).toHaveText(text.mark);
    await expect(first.getByRole("link", { name: new RegExp(text.denied) })).toBeVisible();
    const summary = first.locator("td").nth(7);
    await expect(summary).toHaveText(new RegExp(`: ${text.reason.split(": ")[1]}$`));
    expect((await summary.innerText()).split(text.reason.split(": ")[1]).length).toBe(2);
    // The time is in the company's zone and says which: CET or CEST, whichever is in force at the instant.
    await expect(first.locator("td").first()).toHaveText(madridLabel(at, lang));
    // The device is shown by its full name, as the pickers name it, not by its short code.
    await expect(first.locator("td").nth(5).getByRole("link")).toHaveText(device.name);
    if (lang === "es") await expect(page.locator("tbody")).not.toContainText("Access Denied");
    // Granted looks different at a glance: its own word and colour.
    const grantedMark = page.locator("tbody tr").nth(1).locator('[data-mark="granted"]');
    await expect(grantedMark).toHaveText(text.granted);
    expect(await colour(grantedMark)).not.toBe(await colour(first.locator('[data-mark="denied"]')));
    // Only names look like links, each opening its record; the entry's name opens it and reads as text.
    const nameLink = first.locator('a[href^="/activityDetails"]');
    const deviceLink = first.locator("td").nth(5).getByRole("link");
    expect(await deviceLink.getAttribute("href")).toBe(`/deviceDetails?id=${device.id}`);
    expect(await colour(nameLink)).toBe(await colour(first.locator("td").nth(6)));
    expect(await colour(deviceLink)).not.toBe(await colour(nameLink));
    await expect(first.locator("td").first().locator("a")).toHaveCount(0);
    await keepScreenshot(page, `activity-denied-${lang}`, { fullPage: true });

    await first.getByRole("link", { name: new RegExp(text.denied) }).click();
    await expect(page.getByRole("heading", { level: 1, name: text.denied })).toBeVisible();
    await expect(page.getByText(text.reasonLabel, { exact: true })).toBeVisible();
    await expect(page.getByText(text.reason.split(": ")[1], { exact: true })).toBeVisible();
    // No raw keys of the stored details.
    for (const raw of ["credential", "code", "receivedAt", "source"]) await expect(page.getByText(raw, { exact: true })).toHaveCount(0);
    await expect(page.getByText(madridLabel(at, lang).slice(11)).first()).toBeVisible();
    await keepScreenshot(page, `activity-denied-details-${lang}`, { fullPage: true });
  });
}

for (const lang of ["en", "es"] as const) {
  test(`an e-key entry names the access type in words, never its code (${lang})`, async ({ page, request, loginAs }) => {
    const api = await adminApi(request);
    const user = await api.createUser("Kim");
    const options = await api.call<{ payload: { devices: { id: number; name: string }[] } }>("GET", "/user/getActivityOptions");
    const device = options.payload.devices[0];
    await api.call("POST", "/user/assignKeyToUser", {
      userId: user.id,
      eKey: device.id,
      type: "device",
      status: "1",
      FOBDeviceId: null,
      accessType: "full_access",
      entryId: null,
    });
    await loginAs("acme", lang);
    await page.goto(`/activity?id=${user.id}&type=User`);
    const row = page.locator("tbody tr").first();
    await expect(row).toContainText(lang === "en" ? "E-key Assigned" : "eKey asignada");
    await expect(row.locator("td").nth(7)).toHaveText(`${device.name}: ${lang === "en" ? "Full access" : "Acceso completo"}`);
    await expect(page.locator("tbody")).not.toContainText("_access");
    await row.locator('a[href^="/activityDetails"]').click();
    await expect(page.getByRole("main")).toContainText(`${device.name}: ${lang === "en" ? "Full access" : "Acceso completo"}`);
    await expect(page.getByRole("main")).not.toContainText("_access");
  });
}

// The alarms have badges of their own: forced and tamper in the denial's red, held open and a low battery in amber.
test("forced, held open, tamper and low battery get their own badges", async ({ page, request, loginAs }) => {
  const api = await adminApi(request);
  const options = await api.call<{ payload: { devices: { id: number; name: string }[] } }>("GET", "/user/getActivityOptions");
  const device = options.payload.devices[0];
  const now = runNow();
  const event = (type: string, ms: number, data: Record<string, unknown> = {}) => ({
    id: `${device.id}/gw/alarm.e2e-${unique()}`,
    deviceId: String(device.id),
    type,
    at: now - ms,
    data,
  });
  const res = await request.post("/api/gateway/events", {
    headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` },
    data: { v: 1, events: [event("door.forced", 4000), event("door.heldOpen", 3000), event("tamper", 2000, { state: "open" }), event("battery", 1000, { percent: 5 })] },
  });
  expect(res.status()).toBe(200);

  await loginAs("acme");
  await page.goto(`/activity?door=${device.id}`);
  const marks = page.locator("tbody tr").locator("[data-mark]");
  await expect(marks.nth(3)).toBeVisible();
  expect(await marks.evaluateAll((els) => els.slice(0, 4).map((e) => `${e.getAttribute("data-mark")}:${e.textContent}`))).toEqual([
    "lowBattery:Low battery",
    "tamper:Tamper",
    "heldOpen:Held open",
    "forced:Forced",
  ]);
  const [battery, tamper, held, forced] = await Promise.all([0, 1, 2, 3].map((i) => colour(marks.nth(i))));
  expect(forced).toBe(tamper);
  expect(held).toBe(battery);
  expect(forced).not.toBe(held);
  await keepScreenshot(page, "activity-alarm-badges", { fullPage: false });
});

// A battery report stores "Battery at 42% on <door>" in English; a Spanish reader reads it in Spanish.
test("a battery summary stored in English reads in Spanish", async ({ page, request, loginAs }) => {
  const api = await adminApi(request);
  const options = await api.call<{ payload: { devices: { id: number; name: string }[] } }>("GET", "/user/getActivityOptions");
  const device = options.payload.devices[0];
  const res = await request.post("/api/gateway/events", {
    headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` },
    data: { v: 1, events: [{ id: `${device.id}/gw/bat.e2e-${unique()}`, deviceId: String(device.id), type: "battery", at: runNow(), data: { percent: 42 } }] },
  });
  expect(res.status()).toBe(200);

  await loginAs("acme", "es");
  await page.goto(`/activity?id=${device.id}&type=Device`);
  const first = page.locator("tbody tr").first();
  await expect(first).toContainText(`Batería al 42 % en ${device.name}`);
  await expect(page.locator("tbody")).not.toContainText("Battery at 42%");
});
