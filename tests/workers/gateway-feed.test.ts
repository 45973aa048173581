import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq, gt, isNull, lte, max, min, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { background } from "../../worker-background";
import { consoleWorker, db, ORIGIN, schema, workerNow } from "./helpers";

const SECRET = String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET);
type Change = { type: string; op: "upsert" | "delete"; id: string; data?: Record<string, any> };
type Page = { v: 1; changes: Change[]; cursor: string; more: boolean; reset?: boolean };

/** Any write to a key puts it on the feed (the database's triggers do). */
const touchKey = (id: number) =>
  db()
    .update(schema.ekeyAssignments)
    .set({ updatedAt: sql`updated_at + 1` })
    .where(eq(schema.ekeyAssignments.id, id));

async function feed(query: string): Promise<{ status: number; body: Page }> {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes${query}`, { headers: { Authorization: `Bearer ${SECRET}` } });
  return { status: res.status, body: (await res.json()) as Page };
}

/** Follows a snapshot from its first page to its last, as a gateway does. */
async function snapshot(limit: number) {
  const pages: Page[] = [];
  let query = `?limit=${limit}`;
  for (;;) {
    const r = await feed(query);
    expect(r.status).toBe(200);
    pages.push(r.body);
    if (!r.body.more) return { pages, changes: pages.flatMap((p) => p.changes), cursor: r.body.cursor };
    query = `?limit=${limit}&cursor=${r.body.cursor}`;
  }
}

const find = (changes: Change[], type: string, id: string) => changes.find((c) => c.type === type && c.id === id);
const feedHead = async () =>
  (
    await db()
      .select({ seq: max(schema.gatewayChanges.seq) })
      .from(schema.gatewayChanges)
  )[0].seq ?? 0;

async function runCron() {
  const ctx = createExecutionContext();
  await background.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("snapshot paging", () => {
  it("returns every row exactly once across pages, reset only on the first, then the head as cursor", async () => {
    const head = await feedHead();
    const whole = await snapshot(1000);
    expect(whole.pages).toHaveLength(1);
    const paged = await snapshot(7);
    expect(paged.pages.length).toBeGreaterThan(10);
    expect(paged.pages.map((p) => Boolean(p.reset))).toEqual([true, ...paged.pages.slice(1).map(() => false)]);
    expect(paged.pages.slice(0, -1).every((p) => p.cursor.startsWith("s"))).toBe(true);
    expect(paged.cursor).toBe(String(head));

    const keyOf = (c: Change) => `${c.type}/${c.op}/${c.id}`;
    const keys = paged.changes.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(whole.changes.map(keyOf).sort());

    const ids = (type: string) =>
      paged.changes
        .filter((c) => c.type === type && c.op === "upsert")
        .map((c) => c.id)
        .sort();
    const liveDevices = await db().select({ id: schema.devices.id }).from(schema.devices).where(isNull(schema.devices.deletedAt));
    const liveUsers = await db().select({ id: schema.users.id }).from(schema.users).where(isNull(schema.users.deletedAt));
    const companies = await db().select({ code: schema.companies.code }).from(schema.companies);
    expect(ids("device")).toEqual(liveDevices.map((d) => String(d.id)).sort());
    expect(ids("user")).toEqual(liveUsers.map((u) => String(u.id)).sort());
    expect(ids("company")).toEqual(companies.map((c) => c.code).sort());
    expect(find(paged.changes, "company", "ACME")?.data).toEqual({
      id: "ACME",
      active: true,
      biometricRequired: false,
      forceFirmware: false,
      firmwareWindow: null,
      rolloutDeferredUntil: null,
    });
  });

  it("sends what changed while a snapshot was paged after its last page", async () => {
    const first = await feed("?limit=5");
    expect(first.body).toMatchObject({ reset: true, more: true });
    const [key] = await db().select().from(schema.ekeyAssignments).limit(1);
    await touchKey(key.id);
    let page = first.body;
    while (page.more) page = (await feed(`?limit=500&cursor=${page.cursor}`)).body;
    const next = await feed(`?cursor=${page.cursor}`);
    expect(next.status).toBe(200);
    expect(find(next.body.changes, key.isGroup ? "groupKey" : "ekey", String(key.id))).toBeTruthy();
  });

  it("answers a malformed snapshot cursor with 410", async () => {
    for (const cursor of ["s12.nothing.3", "s12.user", "s.user.3"]) expect((await feed(`?cursor=${cursor}`)).status).toBe(410);
  });
});

describe("company status", () => {
  const setActive = (companyId: number, active: boolean) => db().update(schema.companies).set({ isDeactive: !active }).where(eq(schema.companies.id, companyId));

  it("reaches gateways on deactivation and reactivation, with the company's doors and scheduled-open hours", async () => {
    const [acme] = await db().select().from(schema.companies).where(eq(schema.companies.code, "ACME"));
    const acmeDevices = await db()
      .select({ id: schema.devices.id })
      .from(schema.devices)
      .where(and(eq(schema.devices.companyId, acme.id), isNull(schema.devices.deletedAt)));
    const start = (await snapshot(1000)).cursor;

    await setActive(acme.id, false);
    const off = await feed(`?cursor=${start}`);
    expect(off.status).toBe(200);
    expect(find(off.body.changes, "company", "ACME")).toEqual({
      type: "company",
      op: "upsert",
      id: "ACME",
      data: { id: "ACME", active: false, biometricRequired: false, forceFirmware: false, firmwareWindow: null, rolloutDeferredUntil: null },
    });
    const devices = off.body.changes.filter((c) => c.type === "device");
    expect(devices.map((d) => d.id).sort()).toEqual(acmeDevices.map((d) => String(d.id)).sort());
    // The doors stay as they are: the company record shuts them, and reopens them when it comes back.
    expect(devices.every((d) => d.op === "delete" || d.data?.companyId === "ACME")).toBe(true);
    expect(find(off.body.changes, "scheduledOpen", String(acme.id))?.op).toBe("delete");
    expect(off.body.changes.some((c) => c.type === "user")).toBe(false); // users are denied through their company

    const whileOff = await snapshot(1000);
    expect(find(whileOff.changes, "company", "ACME")?.data?.active).toBe(false);
    expect(whileOff.changes.some((c) => c.type === "scheduledOpen" && c.op === "upsert" && c.data?.companyId === "ACME")).toBe(false);

    await setActive(acme.id, true);
    const on = await feed(`?cursor=${off.body.cursor}`);
    expect(find(on.body.changes, "company", "ACME")?.data).toEqual({
      id: "ACME",
      active: true,
      biometricRequired: false,
      forceFirmware: false,
      firmwareWindow: null,
      rolloutDeferredUntil: null,
    });
    expect(find(on.body.changes, "device", "1")?.data?.active).toBe(true);
    expect(find(on.body.changes, "scheduledOpen", String(acme.id))).toMatchObject({ op: "upsert", data: { companyId: "ACME" } });
  });
});

describe("pruning", () => {
  const DAY = 24 * 3600_000;
  const ageUpTo = (seq: number, ms: number) =>
    db()
      .update(schema.gatewayChanges)
      .set({ createdAt: workerNow() - ms })
      .where(lte(schema.gatewayChanges.seq, seq));
  const oldestKept = async () =>
    (
      await db()
        .select({ seq: min(schema.gatewayChanges.seq) })
        .from(schema.gatewayChanges)
    )[0].seq;

  it("drops changes past the retention from the cron, and a cursor short of the oldest kept change gets 410", async () => {
    const [key] = await db().select().from(schema.ekeyAssignments).limit(1);
    const stale = await feedHead();
    for (let i = 0; i < 3; i++) await touchKey(key.id);
    // Rows get created_at from D1's own clock; put them on the Worker's, which the cron prunes by.
    await db().update(schema.gatewayChanges).set({ createdAt: workerNow() }).where(gt(schema.gatewayChanges.seq, stale));
    await ageUpTo(stale + 1, 8 * DAY); // the two newest stay inside the retention

    await runCron();
    expect(await oldestKept()).toBe(stale + 2);
    const gap = await feed(`?cursor=${stale}`);
    expect(gap.status).toBe(410);
    expect((gap.body as unknown as { error: string }).error).toBe("cursor_expired");
    const caughtUp = await feed(`?cursor=${stale + 1}`);
    expect(caughtUp.status).toBe(200);
    expect(caughtUp.body.cursor).toBe(String(stale + 3));
    expect((await feed("")).body.reset).toBe(true);
  });

  it("keeps the newest change however old, so a caught-up cursor stays valid", async () => {
    const newest = await feedHead();
    await ageUpTo(newest, 30 * DAY);
    await runCron();
    expect(await db().select({ seq: schema.gatewayChanges.seq }).from(schema.gatewayChanges)).toEqual([{ seq: newest }]);
    expect((await feed(`?cursor=${newest}`)).body).toMatchObject({ changes: [], cursor: String(newest), more: false });
    expect((await feed(`?cursor=${newest - 1}`)).status).toBe(200);
    expect((await feed(`?cursor=${newest - 2}`)).status).toBe(410);
  });
});
