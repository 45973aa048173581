import { adminApi, expect, keepScreenshot, test, unique } from "./fixtures";

/**
 * International phones (decision 0037) and the e-key panel's warnings, in English and Spanish. Each test
 * works on rows of its own; nothing here depends on the hour the suite runs at (the DST key is in
 * October 2027, after every CI instant).
 */
const T = {
  en: {
    spain: "Spain",
    spainLabel: "Spain (+34)",
    us: "United States (+1)",
    saved: "User Created",
    dst: "A daylight-saving change in Europe/Madrid",
    oneTime: "One-time key",
    dup: "This user already has a key to",
  },
  es: {
    spain: "Espa",
    spainLabel: "España (+34)",
    us: "Estados Unidos (+1)",
    saved: "Usuario creado",
    dst: "Un cambio de horario de verano en Europe/Madrid",
    oneTime: "Llave de un solo uso",
    dup: "Este usuario ya tiene una llave para",
  },
} as const;

/** A Spanish mobile no other run uses: 6 + 8 digits. */
const spanishMobile = () => `6${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

for (const lang of ["en", "es"] as const) {
  const t = T[lang];

  test(`a Spanish mobile is accepted and shown as +34 (${lang})`, async ({ page, loginAs }) => {
    await loginAs("acme", lang);
    await page.goto("/addUser");
    const last = `Aaphone${unique()}`;
    await page.locator("#user-firstName").fill("Pilar");
    await page.locator("#user-lastName").fill(last);
    await page.locator("#user-displayName").fill(`${last}, Pilar`);
    await page.locator("#user-email").fill(`${last.toLowerCase()}@acme.example`);

    // The picker starts at the company's default country (+1) and is driven by the keyboard alone.
    const picker = page.locator("#user-countryCode");
    await expect(picker).toHaveValue(t.us);
    await picker.focus();
    await page.keyboard.type(t.spain);
    await expect(page.getByRole("listbox")).toBeVisible();
    await expect(page.getByRole("option").first()).toContainText("+34");
    await page.keyboard.press("Enter");
    await expect(picker).toHaveValue(t.spainLabel);
    await expect(page.getByRole("listbox")).toHaveCount(0);

    const national = spanishMobile();
    await page.locator("#user-cell").fill(`${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`);
    await page.getByRole("button", { name: lang === "en" ? "Save" : "Guardar" }).click();
    await expect(page).toHaveURL(/\/modifyUser\?id=\d+/);
    await expect(page.getByText(t.saved).first()).toBeVisible();
    await expect(page.locator("#user-countryCode")).toHaveValue(t.spainLabel);
    await expect(page.locator("#user-cell")).toHaveValue(/^6\d\d \d\d \d\d \d\d$/);

    // The list shows it in international format.
    await page.goto("/users");
    await expect(page.getByRole("row", { name: new RegExp(last) })).toContainText(`+34 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`);
    await keepScreenshot(page, `phone-spanish-${lang}`, { fullPage: true });
  });

  test(`a US number takes the 999-999-9999 mask and a short one is refused (${lang})`, async ({ page, loginAs }) => {
    await loginAs("acme", lang);
    await page.goto("/addUser");
    // The phone pair is checked once the other fields are filled (the form's whole-object check).
    const last = `Aamask${unique()}`;
    await page.locator("#user-firstName").fill("Uma");
    await page.locator("#user-lastName").fill(last);
    await page.locator("#user-displayName").fill(`${last}, Uma`);
    await page.locator("#user-email").fill(`${last.toLowerCase()}@acme.example`);
    const cell = page.locator("#user-cell");
    await expect(cell).toHaveAttribute("placeholder", "999-999-9999");
    await cell.fill("5551234567");
    await expect(cell).toHaveValue("555-123-4567");
    await cell.fill("555123");
    await cell.blur();
    await expect(page.getByText(lang === "en" ? "Cell number is invalid" : "El número de móvil no es válido para el país elegido")).toBeVisible();

    // Escape closes the list and keeps the country; arrows move through it.
    const picker = page.locator("#user-countryCode");
    await picker.focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("listbox")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("listbox")).toHaveCount(0);
    await expect(picker).toHaveValue(t.us);
    await keepScreenshot(page, `phone-us-mask-${lang}`, { fullPage: true });
  });

  test(`e-keys: a future DST key's real hours, the duplicate-device warning and the one-time badge (${lang})`, async ({ page, loginAs }) => {
    const user = (await (await adminApi(page.request)).createUser("Dana", `Dst${unique()}`)).id;
    await loginAs("acme", lang);
    await page.goto(`/modifyUser?id=${user}`);
    const panel = page.locator("section[aria-label]").filter({ has: page.locator("#ekey-key") });

    // A key for the last weekend of October 2027 (Madrid leaves summer time on the 31st), 22:00-06:00.
    await panel.locator("#ekey-key").selectOption({ index: 1 });
    await panel.locator('input[name="ekey-access"][value="custom_access"]').check();
    await panel.locator("#ekey-startDate").fill("2027-10-29");
    await panel.locator("#ekey-neverEnds").click();
    await panel.locator("#ekey-endDate").fill("2027-11-01");
    await panel.locator("#ekey-allDay").click();
    await panel.locator("#ekey-startTime").fill("22:00");
    await panel.locator("#ekey-endTime").fill("06:00");
    const preview = page.getByTestId("ekey-preview");
    await expect(preview.getByRole("heading")).toContainText("2027-10-29");
    const keyZone = preview.locator("ul").first().locator("li");
    await expect(keyZone.first()).toContainText("2027-10-29 22:00 → 2027-10-30 06:00");
    await expect(keyZone.filter({ hasText: "2027-10-30 22:00 → 2027-10-31 06:00" })).toHaveCount(1);
    await expect(preview).toContainText(`${t.dst}`);
    await expect(preview).toContainText("2027-10-30");
    await keepScreenshot(page, `ekey-future-dst-${lang}`, { fullPage: true });

    // The form's own names for its fields, as the list must show them.
    const formNames = await Promise.all(
      ["#ekey-startDate", "#ekey-endDate", "#ekey-startTime", "#ekey-endTime"].map((id) =>
        panel.locator(id).evaluate((el) => {
          const label = (el as HTMLInputElement).labels?.[0] ?? document.getElementById(el.getAttribute("aria-labelledby") ?? "");
          return (label?.textContent ?? "").replace("*", "").trim();
        }),
      ),
    );
    expect(formNames.every(Boolean)).toBe(true);

    // Assign it, then choose the same device again: warned in place before saving.
    await panel.getByRole("button", { name: lang === "en" ? "Assign" : "Asignar" }).click();
    await expect(panel.locator("ul[aria-label] > li")).toHaveCount(1);
    const assigned = panel.locator("ul[aria-label] > li").first();
    for (const name of formNames) await expect(assigned.locator("span.font-medium", { hasText: new RegExp(`^${name}:$`) })).toHaveCount(1);
    await panel.locator("#ekey-key").selectOption({ index: 1 });
    await expect(page.getByTestId("ekey-duplicate")).toContainText(t.dup);
    await keepScreenshot(page, `ekey-duplicate-${lang}`, { fullPage: true });

    // A one-time key on another device has its own badge in the list.
    await panel.locator("#ekey-key").selectOption({ index: 2 });
    await expect(page.getByTestId("ekey-duplicate")).toHaveCount(0);
    await panel.locator('input[name="ekey-access"][value="one_time_access"]').check();
    await panel.getByRole("button", { name: lang === "en" ? "Assign" : "Asignar" }).click();
    await expect(page.getByTestId("ekey-one-time")).toHaveText(t.oneTime);
    await keepScreenshot(page, `ekey-one-time-${lang}`, { fullPage: true });
  });
}
