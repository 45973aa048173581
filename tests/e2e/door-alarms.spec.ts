import { DEMO_GATEWAY } from "../../db/seed/gateway";
import { expect, LANGUAGE_AND_WIDTH_RUNS, runNow, test, unique } from "./fixtures";

// Door alarms (decision 0076): a board reports an ACME door held open, the dashboard's count opens the
// active alarms, and the admin acknowledges it with a note. Each run uses its own door (ACME has 1-12).
const texts = {
  en: {
    door: 11,
    acknowledge: /^Acknowledge the alarm at /,
    title: "Acknowledge alarm",
    button: "Acknowledge",
    note: "Note",
    required: "Write a note about what was found",
    done: "Alarm acknowledged",
    state: "Acknowledged",
  },
  es: {
    door: 12,
    acknowledge: /^Reconocer la alarma de /,
    title: "Reconocer alarma",
    button: "Reconocer",
    note: "Nota",
    required: "Escriba una nota sobre lo encontrado",
    done: "Alarma reconocida",
    state: "Reconocida",
  },
};

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  const x = texts[lang];
  test(`door alarms (${lang}, ${width} px): acknowledge a held-open alarm with a note`, async ({ page, loginAs, request }) => {
    const res = await request.post("/api/gateway/events", {
      headers: { Authorization: `Bearer ${DEMO_GATEWAY.defaultSecret}` },
      data: { v: 1, events: [{ id: `e2e-alarm.${unique()}`, deviceId: String(x.door), type: "door.heldOpen", at: runNow(), data: {} }] },
    });
    expect(res.status()).toBe(200);
    await page.setViewportSize({ width, height });
    await loginAs("acme", lang);
    await page.goto("/");
    await page.getByTestId("stat-alarms").click();
    await expect(page).toHaveURL(/\/doorAlarms\?state=active$/);
    await page.goto(`/doorAlarms?state=active&kind=heldOpen&door=${x.door}`);

    await page.getByRole("button", { name: x.acknowledge }).click();
    const dialog = page.getByRole("dialog", { name: x.title });
    await dialog.getByRole("button", { name: x.button, exact: true }).click();
    await expect(dialog.getByText(x.required)).toBeVisible();
    await dialog.getByLabel(x.note).fill("Propped open by a delivery; closed it");
    await dialog.getByRole("button", { name: x.button, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: x.done })).toBeVisible();
    await page.goto(`/doorAlarms?state=acknowledged&door=${x.door}`);
    await expect(page.getByRole("cell", { name: x.state })).toBeVisible();
    await expect(page.getByText("Propped open by a delivery; closed it")).toBeVisible();
  });
}
