import { readFile } from "node:fs/promises";
import type { APIRequestContext } from "@playwright/test";
import { adminApi, expect, LANGUAGE_AND_WIDTH_RUNS, test, RESET_SAFE_GET } from "./fixtures";

const zipBytes = () => Buffer.concat([Buffer.from("PK\u0003\u0004"), Buffer.alloc(64 * 1024, 7)]);

test.describe("firmware (OTA)", () => {
  test("root uploads a zip, sees it on /ota, makes it active and deletes it", async ({ page, loginAs }) => {
    await loginAs("root");
    await page.goto("/ota");
    await expect(page.getByRole("heading", { name: "OTA" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Firmware progress" })).toBeVisible();
    await expect(page.getByTestId("ota-policy")).toContainText("only when the company forces firmware updates");

    await page.getByRole("link", { name: "Add" }).click();
    await expect(page).toHaveURL(/\/addota$/);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByText("Required version")).toBeVisible();
    await expect(page.getByText("Required file")).toBeVisible();

    const version = `7${Date.now() % 100000}`;
    await page.getByLabel("Version").fill(version);
    await page.getByLabel("Zip file").setInputFiles({ name: "board-fw.zip", mimeType: "application/zip", buffer: zipBytes() });
    await page.getByLabel("Device type").selectOption({ label: "AB-100 · Access Board" });
    await page.getByLabel("Description").fill("End-to-end upload");
    await page.getByRole("button", { name: "Upload" }).click();

    await expect(page).toHaveURL(/\/ota$/);
    await expect(page.getByText("OTA added successfully", { exact: true })).toBeVisible();
    const row = page.locator("tbody tr", { hasText: version });
    await expect(row).toContainText("End-to-end upload");
    await expect(row).toContainText("AB-100");
    await expect(row).toContainText("64.0 KB");
    await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await expect(row).toContainText("Inactive");

    const downloading = page.waitForEvent("download");
    await row.getByRole("link", { name: `Download the zip of version ${version}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("board-fw.zip");
    expect((await readFile((await download.path())!)).equals(zipBytes())).toBe(true);

    await row.getByRole("button", { name: "Make active" }).click();
    const activate = page.getByRole("alertdialog");
    await expect(activate).toContainText("Make this version active?");
    await activate.getByRole("button", { name: "Make active" }).click();
    await expect(page.getByText("OTA activated successfully", { exact: true })).toBeVisible();
    await expect(row).toContainText("Active");
    await expect(row.getByRole("button", { name: "Make active" })).toHaveCount(0);

    await row.getByRole("button", { name: `Delete ${version}` }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("Delete this version?");
    await confirm.getByRole("button", { name: "Cancel", exact: true }).first().click();
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: `Delete ${version}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("OTA deleted successfully", { exact: true })).toBeVisible();
    await expect(page.locator("tbody tr", { hasText: version })).toHaveCount(0);
  });

  test("a refusal only the server can make lands on its field, and nothing is stored", async ({ page, loginAs }) => {
    await loginAs("root");
    await page.goto("/addota");
    const version = `8${Date.now() % 100000}`;
    await page.getByLabel("Version").fill(version);
    await page.getByLabel("Zip file").setInputFiles({ name: "ghost.zip", mimeType: "application/zip", buffer: zipBytes() });
    // A device type that no longer exists (deleted while the page was open): the browser cannot know.
    const select = page.getByLabel("Device type");
    await select.evaluate((el) => el.insertAdjacentHTML("beforeend", `<option value="987654">GONE · Deleted type</option>`));
    await select.selectOption("987654");
    await page.getByRole("button", { name: "Upload" }).click();

    await expect(select).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(`[id="${await select.getAttribute("id")}-error"]`)).toHaveText("Unknown device type");
    await expect(page).toHaveURL(/\/addota$/);
    await expect(page.getByLabel("Version")).toHaveValue(version);

    await page.goto("/ota");
    await expect(page.getByRole("heading", { name: "OTA" })).toBeVisible();
    await expect(page.locator("tbody tr", { hasText: version })).toHaveCount(0);
  });

  test("a company admin without the company module cannot open /ota or download a zip", async ({ page, loginAs }) => {
    await loginAs("acme");
    const res = await page.goto("/ota");
    expect(res?.status()).toBe(403);
    expect((await page.request.get("/resources/ota/1/download", RESET_SAFE_GET)).status()).toBe(403);
  });

  // The company's firmware policy on the device's page (decision 0116); the server's refusals are in
  // tests/workers/ota-policy.test.ts. Each run its own door (10 Mail Room, 11 Gym) and release.
  const POLICY_TEXT = {
    en: {
      installers: "Only installers start an update",
      refusal: "Only installers may update firmware in this company.",
      start: "Start firmware update",
      done: "Firmware update started",
    },
    es: {
      installers: "Solo los instaladores inician una actualización",
      refusal: "En esta empresa solo los instaladores pueden actualizar el firmware.",
      start: "Iniciar actualización de firmware",
      done: "Actualización de firmware iniciada",
    },
  } as const;

  /** ACME's "allowed to update firmware", the rest of its settings as they are. */
  async function setAllowedFirmware(request: APIRequestContext, allowed: "All Users" | "Installer Only") {
    const acme = await adminApi(request, "acme");
    const { payload } = await acme.call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
    await acme.call("PUT", "/settings/modifyCompanySettings", { ...payload, allowed_firmware: allowed, is_force_firmware_update: "0" });
  }

  for (const [i, { lang, width, height }] of LANGUAGE_AND_WIDTH_RUNS.entries()) {
    test(`a device's page shows the firmware policy: Installer Only hides the start from a non-installer, All Users starts it (${lang}, ${width} px)`, async ({
      page,
      request,
      loginAs,
    }) => {
      const tx = POLICY_TEXT[lang];
      const door = 10 + i;
      const root = await adminApi(request, "root");
      const version = `6${Date.now() % 100000}${i}`;
      const uploaded = await request.post("/api/admin/ota/addota", {
        headers: { Authorization: root.token },
        multipart: { version, device_type_id: "1", zip_file: { name: "fw.zip", mimeType: "application/zip", buffer: zipBytes() } },
      });
      expect(uploaded.status()).toBe(200);
      const releaseId = (await uploaded.json()).payload.id as number;
      await root.call("POST", "/ota/activeota", { id: releaseId });
      try {
        await setAllowedFirmware(request, "Installer Only");
        await page.setViewportSize({ width, height });
        await loginAs("acme", lang);
        await page.goto(`/deviceDetails?id=${door}`);
        const card = page.getByTestId("firmware");
        await expect(card).toContainText(tx.installers);
        await expect(card).toContainText(version);
        await expect(card).toContainText(tx.refusal);
        await expect(card.getByRole("button", { name: tx.start })).toHaveCount(0);

        await setAllowedFirmware(request, "All Users");
        await page.reload();
        await card.getByRole("button", { name: tx.start }).click();
        await page.getByRole("alertdialog").getByRole("button", { name: tx.start }).click();
        await expect(page.getByText(tx.done, { exact: true }).first()).toBeVisible();
        await expect(card.getByRole("button", { name: tx.start })).toHaveCount(0);
      } finally {
        await setAllowedFirmware(request, "All Users");
        await root.call("POST", "/ota/deleteota", { id: releaseId });
      }
    });
  }
});
