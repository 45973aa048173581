import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { adminApi, expect, runNow, test, unique } from "./fixtures";

// A denial made the way a real one arrives: the gateway posts the board's access.denied event with
// its reason code (gateway/PROTOCOL.md "Denial codes"). ACME's zone is Europe/Madrid.
async function postDenial(request: import("@playwright/test").APIRequestContext, deviceId: number, at: number) {
  const res = await request.post("/api/gateway/events", {
    headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` },
    data: {
      v: 1,
      events: [
        {
          id: `${deviceId}/gw/acc.e2e-${unique()}`,
          deviceId: String(deviceId),
          type: "access.denied",
          at,
          data: { credential: { kind: "fob", id: `fob-${unique()}` }, code: "no_key", reason: "No key for this door", nextOpen: null },
        },
      ],
    },
  });
  expect(res.status()).toBe(200);
  expect((await res.json()).accepted).toBe(1);
}

for (const lang of ["en", "es"] as const) {
  const text = {
    en: { title: "Activity", denied: "Access Denied", mark: "Denied", reason: "Denied: No key for this door", reasonLabel: "Reason", opened: "Door Opened" },
    es: { title: "Actividad", denied: "Acceso denegado", mark: "Denegado", reason: "Denegado: No tiene llave para esta puerta", reasonLabel: "Motivo", opened: "Puerta abierta" },
  }[lang];

  test(`a denied access shows its reason, translated names and labelled times (${lang})`, async ({ page, request, loginAs }) => {
    const api = await adminApi(request);
    const options = await api.call<{ payload: { devices: { id: number; name: string }[] } }>("GET", "/user/getActivityOptions");
    const device = options.payload.devices[0];
    await postDenial(request, device.id, runNow());

    await loginAs("acme", lang);
    await page.goto(`/activity?id=${device.id}&type=Device`);
    await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();
    const first = page.locator("tbody tr").first();
    // Icon and word, not colour alone; the name is translated; the reason comes from the code.
    await expect(first.locator('[data-outcome="denied"]')).toHaveText(text.mark);
    await expect(first.getByRole("link", { name: new RegExp(text.denied) })).toBeVisible();
    await expect(first.getByTestId("denial-reason")).toHaveText(text.reason);
    // The time is in the company's zone and says which (CET in winter, CEST in summer).
    await expect(first.locator("td").first()).toHaveText(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d CES?T$/);
    // The device is shown by its full name, as the pickers name it, not by its short code.
    await expect(first.locator("td").nth(5).getByRole("link")).toHaveText(device.name);
    if (lang === "es") await expect(page.locator("tbody")).not.toContainText("Access Denied");
    await page.screenshot({ path: `test-results/screens/activity-denied-${lang}.png`, fullPage: true });

    await first.getByRole("link", { name: new RegExp(text.denied) }).click();
    await expect(page.getByRole("heading", { level: 1, name: text.denied })).toBeVisible();
    await expect(page.getByText(text.reasonLabel, { exact: true })).toBeVisible();
    await expect(page.getByText(text.reason.split(": ")[1], { exact: true })).toBeVisible();
    // No raw keys of the stored details.
    for (const raw of ["credential", "code", "receivedAt", "source"]) await expect(page.getByText(raw, { exact: true })).toHaveCount(0);
    await expect(page.getByText(/\d\d:\d\d:\d\d CES?T$/).first()).toBeVisible();
    await page.screenshot({ path: `test-results/screens/activity-denied-details-${lang}.png`, fullPage: true });
  });
}
