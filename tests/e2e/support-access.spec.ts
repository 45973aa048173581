import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, mailbox, test, unique } from "./fixtures";

// Support access (decision 0093): ACME's admin grants access from the company settings; the grantee's
// staff open ACME's console from the fleet view and see the banner on every page; once ACME revokes the
// grant, the next page is the staff member's own console again. Each grant names the staff member who opens
// it, and ACME's admin is mailed when the session opens. English grants the reseller, Spanish the platform,
// so the two runs never share a grant.
const texts = {
  en: {
    who: "var" as const,
    staffEmail: "var@reseller.example",
    staffLabel: "Only these staff members (optional)",
    grantee: "Northwind Resellers (RSL1)",
    settingsLink: "Support access",
    add: "Grant support access",
    reason: "Reason",
    submit: "Grant access",
    granted: "Support access granted",
    inForce: "In force",
    open: "Open the console of Acme Corporation as support",
    banner: "Support session in Acme Corporation for Northwind Resellers",
    leave: "Leave support session",
  },
  es: {
    who: "root" as const,
    staffEmail: "root@example.com",
    staffLabel: "Solo estas personas de su personal (opcional)",
    grantee: "Platform Root (ROOT)",
    settingsLink: "Acceso de soporte",
    add: "Conceder acceso de soporte",
    reason: "Motivo",
    submit: "Conceder acceso",
    granted: "Acceso de soporte concedido",
    inForce: "Vigente",
    open: "Abrir la consola de Acme Corporation como soporte",
    banner: "Sesión de soporte en Acme Corporation para Platform Root",
    leave: "Salir de la sesión de soporte",
  },
};

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  const x = texts[lang];
  test(`support access (${lang}, ${width} px): granted, opened as support with a banner, revoked`, async ({ page, loginAs }) => {
    const reason = `Door check ${unique()}`;
    await page.setViewportSize({ width, height });
    await loginAs("acme", lang);
    await page.goto("/companySettings");
    await page.getByRole("link", { name: x.settingsLink }).click();
    await page.getByRole("link", { name: x.add }).click();
    await expect(page).toHaveURL(/\/addSupportAccess$/);
    await page.getByLabel(/^(Grant access to|Conceder acceso a)/).selectOption({ label: x.grantee });
    await page.getByLabel(x.reason).fill(reason);
    await page.getByLabel(x.staffLabel).fill(`${x.staffEmail.toUpperCase()}, `);
    await page.getByRole("button", { name: x.submit }).click();
    await expect(page).toHaveURL(/\/supportAccess$/);
    await expect(page.getByText(x.granted, { exact: true })).toBeVisible();
    const row = page.locator("tbody tr", { hasText: reason });
    await expect(row).toContainText(x.inForce);
    await expect(row).toContainText(x.staffEmail);

    await loginAs(x.who, lang);
    await page.goto("/fleet");
    await page.getByRole("button", { name: x.open }).click();
    const banner = page.getByTestId("support-banner");
    await expect(banner).toContainText(x.banner);
    await expect(banner).toContainText(reason);
    await keepScreenshot(page, `support-banner-${lang}-${width}`, { fullPage: true });
    // ACME's admin, who granted it, is told (ACME's mails are in English).
    await expect
      .poll(async () => (await mailbox()).filter((m) => m.to.includes("admin@acme.example") && m.text.includes(reason)).map((m) => m.subject))
      .toEqual([expect.stringMatching(/^Support session opened in your console: /)]);
    await page.goto("/users");
    await expect(banner).toContainText(x.banner);

    // ACME revokes: the support session ends at the next page.
    const acme = await adminApi(page.request, "acme");
    const grants = await acme.call<{ payload: { id: number; reason: string }[] }>("GET", "/support/getSupportGrants");
    const id = grants.payload.find((g) => g.reason === reason)!.id;
    await acme.call("POST", "/support/revokeSupportAccess", { id });
    await page.goto("/users");
    await expect(page.getByTestId("support-banner")).toHaveCount(0);
    await page.goto("/fleet");
    await expect(page.getByRole("button", { name: x.open })).toHaveCount(0);
  });
}
