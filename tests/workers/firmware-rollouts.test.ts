/**
 * Staged firmware rollouts at the console (decision 0094): starting one checks the plan and the release,
 * the release's feed record carries the plan, failures reported by gateways pause it by itself (an
 * activity row alerts see), the cron opens waves after their healthy time and completes it, and abort
 * takes the plan off the feed. Only holders of the `company` module may do any of it.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedGateway } from "../../db/seed/gateway";
import { waveOf } from "../../gateway/src/firmware/rollout-plan.js";
import { checkRollouts } from "~/services/firmware-rollouts.server";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, schema, workerNow } from "./helpers";

const SECRET = String(env.GATEWAY_SECRET);
const ACME = 3;
const BOARDS = 40;
let root: string;
let acme: string;
let typeId: number;
let boardIds: number[];
let n = 0;

const zip = (text: string) => new File([new TextEncoder().encode(`PK\u0003\u0004${text}`)], "fw.zip", { type: "application/zip" });
async function upload(version: string) {
  const form = new FormData();
  form.append("version", version);
  form.append("device_type_id", String(typeId));
  form.append("zip_file", zip(version));
  const r = await api(root, "POST", "/api/admin/ota/addota", form);
  expect(r.status).toBe(200);
  return r.body.payload.id as number;
}

async function events(list: unknown[]) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, gatewayId: "gw-rollout", events: list }),
  });
  expect(res.status).toBe(200);
}
const result = (deviceId: number, releaseId: number, ok: boolean, at = workerNow()) => ({
  id: `${deviceId}/fwr.${releaseId}.${++n}`,
  deviceId: String(deviceId),
  type: "firmware.result",
  at,
  data: { releaseId: String(releaseId), ok, ...(ok ? {} : { error: "sha256_mismatch" }) },
});

const rolloutOf = async (id: number) => (await api(root, "POST", "/api/admin/ota/getRollouts", {})).body.payload.find((x: { id: number }) => x.id === id);
const feedRecord = async (releaseId: number) => {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?limit=1000`, { headers: { Authorization: `Bearer ${SECRET}` } });
  let page = (await res.json()) as { changes: { type: string; id: string; data?: { rollout?: unknown; active?: boolean } }[]; cursor: string; more: boolean };
  const found = [...page.changes];
  while (page.more) {
    page = (await (
      await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?limit=1000&cursor=${page.cursor}`, { headers: { Authorization: `Bearer ${SECRET}` } })
    ).json()) as typeof page;
    found.push(...page.changes);
  }
  return found.filter((c) => c.type === "firmware" && c.id === String(releaseId)).at(-1)?.data;
};

beforeAll(async () => {
  await seedGateway(db(), { GATEWAY_SECRET: SECRET });
  root = await login("root");
  acme = await login("acme");
  const [type] = await db().insert(schema.deviceTypes).values({ deviceCode: "RW-1", deviceType: "Rollout board" }).returning({ id: schema.deviceTypes.id });
  typeId = type.id;
  // One row per statement: D1 binds at most 100 variables in one.
  const rows = await db().batch(
    Array.from({ length: BOARDS }, (_, i) =>
      db()
        .insert(schema.devices)
        .values({ companyId: ACME, deviceTypeId: typeId, fullName: `Rollout ${i}`, serialNumber: `ROLL-${i}`, status: "configured" })
        .returning({ id: schema.devices.id }),
    ) as unknown as [never],
  );
  boardIds = (rows as unknown as { id: number }[][]).map(([r]) => r.id);
});

describe("starting a rollout", () => {
  it("refuses a bad plan with the field's message, and callers without the company module", async () => {
    const v = await upload("7.0");
    const bad = await api(root, "POST", "/api/admin/ota/startRollout", { release_id: v, waves: [50, 20, 100], fail_count: 3 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("waves: Waves are up to 10 rising percentages ending at 100, such as 5, 25, 100");
    const noThreshold = await api(root, "POST", "/api/admin/ota/startRollout", { release_id: v, waves: "10, 100" });
    expect(noThreshold.status).toBe(400);
    expect(noThreshold.body.message).toContain("Set at least one failure threshold");
    const stranger = await api(root, "POST", "/api/admin/ota/startRollout", { release_id: v, waves: [100], fail_count: 1, canary_device_ids: [1] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toContain("Canary boards must be configured boards of the release's device type");
    expect((await api(acme, "POST", "/api/admin/ota/startRollout", { release_id: v, waves: [100], fail_count: 1 })).status).toBe(403);
    expect((await api(acme, "POST", "/api/admin/ota/getRollouts", {})).status).toBe(403);
    await api(root, "POST", "/api/admin/ota/deleteota", { id: v });
  });
});

describe("a rollout's life", () => {
  let previous: number;
  let release: number;
  let id: number;
  const plan = () => ({ id, waves: [25, 100], canary: [String(boardIds[0])] });

  it("starts with the type's active release as the previous one, and the feed carries the plan", async () => {
    previous = await upload("8.0");
    await api(root, "POST", "/api/admin/ota/activeota", { id: previous });
    release = await upload("8.1");
    const started = await api(root, "POST", "/api/admin/ota/startRollout", {
      release_id: release,
      waves: "25, 100",
      canary_device_ids: String(boardIds[0]),
      soak_minutes: 30,
      fail_percent: 20,
    });
    expect(started.status).toBe(200);
    expect(started.body.message).toBe("Rollout started");
    id = started.body.payload.id;
    const r = await rolloutOf(id);
    expect(r).toMatchObject({
      state: "running",
      wave: 1,
      previous_release_id: previous,
      previous_version: "8.0",
      canary_device_ids: [boardIds[0]],
      fail_percent: 20,
      fail_count: null,
    });
    expect(r.waves.map((w: { boards: number }) => w.boards).reduce((a: number, b: number) => a + b)).toBe(BOARDS);
    expect(await feedRecord(release)).toMatchObject({ active: false, rollout: { id: String(id), state: "running", wave: 0, waves: [25, 100], canary: [String(boardIds[0])] } });
    // One open rollout per type; its releases stay as they are meanwhile.
    expect((await api(root, "POST", "/api/admin/ota/startRollout", { release_id: release, waves: [100], fail_count: 1 })).status).toBe(409);
    expect((await api(root, "POST", "/api/admin/ota/activeota", { id: release })).status).toBe(409);
    expect((await auditsNamed("Firmware Rollout Started")).length).toBeGreaterThan(0);
  });

  it("the fleet view shows its progress per customer company, a reseller only its own customers, a customer nothing", async () => {
    const [beta] = await db()
      .insert(schema.devices)
      .values({ companyId: 4, deviceTypeId: typeId, fullName: "Beta rollout", serialNumber: "ROLL-BETA", status: "configured" })
      .returning({ id: schema.devices.id });
    const companiesOf = async (token: string) => {
      const r = await api(token, "GET", "/api/admin/fleet/rollouts");
      expect(r.status).toBe(200);
      return r.body.payload.find((x: { id: number }) => x.id === id)?.companies as { code: string; boards: number; admitted: number }[];
    };
    const rootView = await companiesOf(root);
    expect(rootView.map((c) => c.code).sort()).toEqual(["ACME", "BETA"]);
    const acmeRow = rootView.find((c) => c.code === "ACME")!;
    expect(acmeRow.boards).toBe(BOARDS);
    expect(acmeRow.admitted).toBe(boardIds.filter((b) => waveOf(plan(), String(b)) === 0).length);
    // BETA is not a customer of the reseller: its boards are not in the reseller's view.
    expect((await companiesOf(await login("var"))).map((c) => c.code)).toEqual(["ACME"]);
    expect((await api(acme, "GET", "/api/admin/fleet/rollouts")).status).toBe(403);
    await db().delete(schema.devices).where(eq(schema.devices.id, beta.id));
  });

  it("the cron opens no wave before the healthy time, then the next; failures of an open wave pause it by themselves", async () => {
    const now = workerNow();
    await checkRollouts(db(), now, { openWaves: true });
    expect((await rolloutOf(id)).wave).toBe(1);
    await checkRollouts(db(), now + 31 * 60_000, { openWaves: true });
    expect((await rolloutOf(id)).wave).toBe(2);
    expect((await feedRecord(release))?.rollout).toMatchObject({ wave: 1 });

    // 20 % of the second wave fails: the next result ingested pauses the rollout.
    const second = boardIds.filter((b) => waveOf(plan(), String(b)) === 1);
    const needed = Math.ceil(second.length * 0.2);
    await events(second.slice(0, needed - 1).map((b) => result(b, release, false)));
    expect((await rolloutOf(id)).state).toBe("running");
    await events([result(second[needed - 1], release, false)]);
    const paused = await rolloutOf(id);
    expect(paused).toMatchObject({ state: "paused", paused_reason: `${needed} of ${second.length} boards failed in wave 2` });
    expect((await feedRecord(release))?.rollout).toMatchObject({ state: "paused" });
    const [row] = await auditsNamed("Firmware Rollout Paused");
    expect(row.summary).toBe(`Firmware 8.1 rollout paused: ${needed} of ${second.length} boards failed in wave 2`);
  });

  it("a resume counts only later failures; the last wave's healthy time completes it and the release becomes active", async () => {
    expect((await api(root, "POST", "/api/admin/ota/resumeRollout", { id })).body.message).toBe("Rollout resumed");
    expect((await api(root, "POST", "/api/admin/ota/resumeRollout", { id })).status).toBe(409);
    await checkRollouts(db(), workerNow() + 60_000, { openWaves: true });
    expect((await rolloutOf(id)).state).toBe("running");
    await checkRollouts(db(), workerNow() + 31 * 60_000, { openWaves: true });
    expect((await rolloutOf(id)).state).toBe("completed");
    const [rel] = await db().select().from(schema.firmwareReleases).where(eq(schema.firmwareReleases.id, release));
    expect(rel.isActive).toBe(true);
    const [old] = await db().select().from(schema.firmwareReleases).where(eq(schema.firmwareReleases.id, previous));
    expect(old.isActive).toBe(false);
    expect(await feedRecord(release)).toMatchObject({ active: true, rollout: null });
  });

  it("an abort takes the plan off the feed, so boards are offered the active release again", async () => {
    const next = await upload("8.2");
    const started = await api(root, "POST", "/api/admin/ota/startRollout", { release_id: next, waves: [100], fail_count: 1 });
    expect((await api(root, "POST", "/api/admin/ota/pauseRollout", { id: started.body.payload.id })).body.message).toBe("Rollout paused");
    expect((await api(root, "POST", "/api/admin/ota/abortRollout", { id: started.body.payload.id })).status).toBe(200);
    expect((await api(root, "POST", "/api/admin/ota/abortRollout", { id: started.body.payload.id })).status).toBe(409);
    expect((await rolloutOf(started.body.payload.id)).state).toBe("aborted");
    expect(await feedRecord(next)).toMatchObject({ active: false, rollout: null });
    const [still] = await db()
      .select()
      .from(schema.firmwareReleases)
      .where(and(eq(schema.firmwareReleases.deviceTypeId, typeId), eq(schema.firmwareReleases.isActive, true)));
    expect(still.id).toBe(release);
  });
});
