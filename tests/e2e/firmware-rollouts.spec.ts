import { adminApi, expect, keepScreenshot, LANGUAGE_AND_WIDTH_RUNS, test, unique } from "./fixtures";

// Staged firmware rollouts (decision 0094): the platform admin goes from the OTA page to the rollouts,
// starts one for a release (a wrong plan is explained at the field), pauses, resumes and aborts it, each
// after a confirmation. Each run has its own device type, so no other test's releases are held up by it.
const texts = {
  en: {
    ota: "OTA",
    rollouts: "Rollouts",
    title: "Firmware rollouts",
    start: "Start rollout",
    waves: "Waves (cumulative %)",
    wavesError: "Waves are up to 10 rising percentages ending at 100, such as 5, 25, 100",
    started: "Rollout started",
    running: "Running",
    paused: "Paused",
    aborted: "Aborted",
    firstWave: "1 of 2",
    waveLine: "Wave 1 (20%): 0 of 0 installed, 0 failed",
    pausedBy: "Paused by an administrator",
    pause: "Pause",
    of: "the rollout of",
    resume: "Resume",
    abort: "Abort",
    pausedToast: "Rollout paused",
    resumedToast: "Rollout resumed",
    abortedToast: "Rollout aborted: boards are offered the previous release",
    abortTitle: "Abort this rollout?",
    abortText: "No earlier release of",
    fleet: "Fleet health",
    fleetSection: "Firmware rollouts",
    fleetNone: "None of your customers has boards of this type.",
  },
  es: {
    ota: "OTA",
    rollouts: "Despliegues",
    title: "Despliegues de firmware",
    start: "Iniciar despliegue",
    waves: "Oleadas (% acumulado)",
    wavesError: "Las oleadas son hasta 10 porcentajes crecientes que terminan en 100, como 5, 25, 100",
    started: "Despliegue iniciado",
    running: "En curso",
    paused: "En pausa",
    aborted: "Abortado",
    firstWave: "1 de 2",
    waveLine: "Oleada 1 (20 %): 0 de 0 instaladas, 0 con fallo",
    pausedBy: "Pausado por un administrador",
    pause: "Pausar",
    of: "el despliegue de",
    resume: "Reanudar",
    abort: "Abortar",
    pausedToast: "Despliegue pausado",
    resumedToast: "Despliegue reanudado",
    abortedToast: "Despliegue abortado: a las placas se les ofrece la versión anterior",
    abortTitle: "¿Abortar este despliegue?",
    abortText: "No hay ninguna versión anterior de",
    fleet: "Estado de la flota",
    fleetSection: "Despliegues de firmware",
    fleetNone: "Ninguno de sus clientes tiene placas de este tipo.",
  },
};

for (const { lang, width, height } of LANGUAGE_AND_WIDTH_RUNS) {
  const x = texts[lang];
  test(`firmware rollout (${lang}, ${width} px): started from a release, paused, resumed and aborted`, async ({ page, loginAs, request }) => {
    const root = await adminApi(request, "root");
    const code = `RO-${unique()}`.slice(0, 20);
    await root.call("POST", "/deviceType/addDeviceType", { deviceCode: code, deviceType: "Rollout board" });
    const types = await root.call<{ payload: { id: number; device_code: string }[] }>("GET", "/deviceType/getAllDeviceTypes");
    const typeId = types.payload.find((t) => t.device_code === code)!.id;
    const version = `9${Date.now() % 100000}`;
    const uploaded = await request.post("/api/admin/ota/addota", {
      headers: { Authorization: root.token },
      multipart: { version, device_type_id: String(typeId), zip_file: { name: "fw.zip", mimeType: "application/zip", buffer: Buffer.from("PK\u0003\u0004rollout") } },
    });
    expect(uploaded.status()).toBe(200);

    await page.setViewportSize({ width, height });
    await loginAs("root", lang);
    await page.goto("/ota");
    await page.getByRole("link", { name: x.rollouts, exact: true }).click();
    await expect(page.getByRole("heading", { name: x.title })).toBeVisible();
    await page.getByRole("link", { name: x.start }).click();
    await expect(page).toHaveURL(/\/addFirmwareRollout$/);
    await page.getByLabel(/^(Release|Versión)/).selectOption({ label: `${version} (${code})` });
    await page.getByLabel(x.waves).fill("50, 20");
    await page.getByRole("button", { name: x.start }).click();
    await expect(page.getByText(x.wavesError)).toBeVisible();
    await page.getByLabel(x.waves).fill("20, 100");
    await page.getByRole("button", { name: x.start }).click();

    await expect(page).toHaveURL(/\/firmwareRollouts$/);
    await expect(page.getByText(x.started, { exact: true })).toBeVisible();
    const row = page.locator("tbody tr", { hasText: code });
    await expect(row).toContainText(x.running);
    await expect(row).toContainText(x.firstWave);
    await expect(row).toContainText(x.waveLine);
    await keepScreenshot(page, `firmware-rollouts-${lang}-${width}`, { fullPage: true });

    // The fleet view follows it per customer company; this type has no customer's boards.
    await page.goto("/fleet");
    const section = page.getByRole("region", { name: x.fleetSection });
    await expect(section).toContainText(`${version}`);
    await expect(section.locator("div.grid", { hasText: code })).toContainText(x.fleetNone);
    await page.goBack();

    await row.getByRole("button", { name: `${x.pause} ${x.of} ${version}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: x.pause }).click();
    await expect(page.getByText(x.pausedToast, { exact: true })).toBeVisible();
    await expect(row).toContainText(x.paused);
    await expect(row).toContainText(x.pausedBy);

    await row.getByRole("button", { name: `${x.resume} ${x.of} ${version}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: x.resume }).click();
    await expect(page.getByText(x.resumedToast, { exact: true })).toBeVisible();
    await expect(row).toContainText(x.running);

    await row.getByRole("button", { name: `${x.abort} ${x.of} ${version}` }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText(x.abortTitle);
    await expect(confirm).toContainText(x.abortText);
    await confirm.getByRole("button", { name: x.abort }).click();
    await expect(page.getByText(x.abortedToast, { exact: true })).toBeVisible();
    await expect(row).toContainText(x.aborted);
    await expect(row.getByRole("button")).toHaveCount(0);
  });
}
