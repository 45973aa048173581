import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";

const zipBytes = () => Buffer.concat([Buffer.from("PK\u0003\u0004"), Buffer.alloc(64 * 1024, 7)]);

test.describe("firmware (OTA)", () => {
  test("root uploads a zip, sees it on /ota, makes it active and deletes it", async ({ page, loginAs }) => {
    await loginAs("root");
    await page.goto("/ota");
    await expect(page.getByRole("heading", { name: "OTA" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Firmware progress" })).toBeVisible();

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
    expect((await page.request.get("/resources/ota/1/download")).status()).toBe(403);
  });
});
