/**
 * Visitor passes (issue 32, decision 0096) through the admin API, the guest's phone call and the gateway
 * calls: an invite checked against the company's rules, the guest's mail, the feed record, the link bound
 * to the first phone with a signed credential of kind `pass`, a door's report spending a one-entry pass and
 * mailing the host once, and a revocation deleting it from the feed and closing the link. Demo data: BETA
 * (company 4) doors 13–16; ACME's door 1 is another company's.
 */
import { env } from "cloudflare:test";
import { and, eq, isNull, like } from "drizzle-orm";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { drainTexts } from "../../app/services/sms/text-outbox.server";
import { api, auditsNamed, consoleWorker, createDeviceGroup, db, login, ORIGIN, schema, textsTo, workerNow } from "./helpers";

const A = "/api/admin";
let beta: string;
let acme: string;
let auditor: string;

beforeAll(async () => {
  [beta, acme, auditor] = await Promise.all([login("beta"), login("acme"), login("auditor")]);
});

const tag = () => Math.random().toString(36).slice(2, 8);
/** Yesterday to tomorrow (UTC dates): the visit is on in any zone, whatever the instant the test runs at. */
function visitDays() {
  const day = (offset: number) => new Date(workerNow() + offset * 86_400_000).toISOString().slice(0, 10);
  return { startDate: day(-1), endDate: day(1), startTime: "00:00", endTime: "23:59" };
}
const invite = (token: string, over: Record<string, unknown> = {}) =>
  api(token, "POST", `${A}/visitorPasses/addPass`, { guestName: `Ana ${tag()}`, guestEmail: `ana.${tag()}@guest.example`, deviceIds: [13], ...visitDays(), ...over });
const open = (token: string, installationId: string) => api(null, "POST", "/api/mobile/visitorPass/open", { token, installationId });
const head = async () => (await db().select({ seq: schema.gatewayChanges.seq }).from(schema.gatewayChanges).orderBy(schema.gatewayChanges.seq)).at(-1)?.seq ?? 0;
async function feedPass(after: number, id: number) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?cursor=${after}`, { headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}` } });
  const body = (await res.json()) as { changes: { type: string; op: string; id: string; data?: any }[] };
  return body.changes.filter((c) => c.type === "pass" && c.id === `v${id}`).at(-1);
}
async function doorReport(id: string, passId: number, at = workerNow()) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      v: 1,
      events: [{ id, deviceId: "13", type: "access.granted", at, data: { userId: `v${passId}`, keyId: `v${passId}`, keyKind: "pass", reason: "Pass" } }],
    }),
  });
  expect(res.status).toBe(200);
}
const passRow = async (id: number) => (await db().select().from(schema.visitorPasses).where(eq(schema.visitorPasses.id, id)))[0];
const mailsTo = (address: string) => db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, address));

describe("visitor passes", () => {
  it("an invite mails the guest a link, reaches the feed and is listed as active; checks refuse bad ones", async () => {
    const before = await head();
    const email = `guest.${tag()}@guest.example`;
    const made = await invite(beta, { guestName: "Ana López", guestEmail: email, language: "es" });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { id, link } = made.body.payload as { id: number; link: string };
    expect(link).toMatch(new RegExp(`^${ORIGIN}/m#pass=${id}\\.[A-Za-z0-9_-]{43}$`));
    const [mail] = await mailsTo(email);
    expect(mail.subject).toMatch(/^Su pase de visitante para /);
    expect(mail.body).toContain(link);
    // Only a keyed hash of the link's secret is stored.
    expect((await passRow(id)).linkHash).toMatch(/^hmac-sha256\$/);
    expect((await passRow(id)).linkHash).not.toContain(link.split(".").at(-1)!);
    expect(await auditsNamed("Visitor Pass Created", like(schema.activityLogs.summary, "%Ana López%"))).toHaveLength(1);

    const record = await feedPass(before, id);
    expect(record).toMatchObject({ op: "upsert", data: { id: `v${id}`, companyId: "BETA", guest: "Ana López", doors: ["13"], groupId: null } });
    expect(record!.data.window).toMatchObject({ kind: "ekey", access: "custom", startTime: "00:00", endTime: "23:59", used: false });

    const list = await api(beta, "GET", `${A}/visitorPasses/getPasses?state=active&pageSize=100`);
    expect(list.body.payload.rows.find((r: { id: number }) => r.id === id)).toMatchObject({ state: "active", guestName: "Ana López", phoneBound: false });
    // Another company never sees it.
    expect((await api(acme, "GET", `${A}/visitorPasses/getPasses?pageSize=100`)).body.payload.rows.some((r: { id: number }) => r.id === id)).toBe(false);

    // Checks: no way to reach the guest, another company's door, doors and a group at once, a read-only caller.
    expect((await invite(beta, { guestEmail: "", guestPhone: "" })).body.message).toBe("guestEmail: Give the guest's email or phone number");
    expect((await invite(beta, { deviceIds: [1] })).status).toBe(400);
    expect((await invite(beta, { deviceIds: [13], deviceGroupId: 1 })).status).toBe(400);
    expect((await invite(beta, { guestPhone: "600123456", guestEmail: "" })).status).toBe(400);
    expect((await invite(auditor, { deviceIds: [1] })).status).toBe(403);

    // A company that requires biometrics: a guest's phone could not satisfy it, so no pass is made.
    await db().update(schema.companySettings).set({ biometricSecurity: true }).where(eq(schema.companySettings.companyId, 4));
    try {
      const refused = await invite(beta);
      expect(refused.status).toBe(422);
      expect(refused.body.message).toBe("Visitor passes cannot open doors while the company requires biometrics");
    } finally {
      await db().update(schema.companySettings).set({ biometricSecurity: false }).where(eq(schema.companySettings.companyId, 4));
    }
  });

  it("the rules bound the visit's length and the doors; only the company's settings may change them", async () => {
    expect((await api(auditor, "PUT", `${A}/visitorPasses/modifyRules`, { maxDays: 1 })).status).toBe(403);
    expect((await api(beta, "PUT", `${A}/visitorPasses/modifyRules`, { maxDays: 91 })).status).toBe(400);
    const group = (await db().select({ id: schema.deviceGroups.id }).from(schema.deviceGroups).where(eq(schema.deviceGroups.companyId, 1)).limit(1))[0];
    if (group) expect((await api(beta, "PUT", `${A}/visitorPasses/modifyRules`, { maxDays: 2, deviceGroupId: group.id })).status).toBe(400);
    expect((await api(beta, "PUT", `${A}/visitorPasses/modifyRules`, { maxDays: 2 })).status).toBe(200);
    try {
      const long = await invite(beta);
      expect(long.status).toBe(422);
      expect(long.body.message).toBe("The visit is longer than the company allows");
      expect((await api(beta, "GET", `${A}/visitorPasses/getRules`)).body.payload).toEqual({ maxDays: 2, hostRoleIds: [], deviceGroupId: null });
    } finally {
      await api(beta, "PUT", `${A}/visitorPasses/modifyRules`, { maxDays: 7 });
    }
  });

  it("the rules' device group bounds the doors a guest may ever be given, by door or by group", async () => {
    const bound = await createDeviceGroup(beta, `Guest doors ${tag()}`, [13, 14]);
    const wider = await createDeviceGroup(beta, `Lobby and lab ${tag()}`, [13, 15]);
    expect((await api(beta, "PUT", `${A}/visitorPasses/modifyRules`, { maxDays: 7, deviceGroupId: bound })).status).toBe(200);
    try {
      const outside = await invite(beta, { deviceIds: [13, 15] });
      expect(outside).toMatchObject({ status: 422, body: { message: "Guests may not open one of these doors" } });
      expect((await invite(beta, { deviceIds: [], deviceGroupId: wider })).status).toBe(422);
      expect((await invite(beta, { deviceIds: [14] })).status).toBe(200);
      expect((await invite(beta, { deviceIds: [], deviceGroupId: bound })).status).toBe(200);
    } finally {
      await api(beta, "PUT", `${A}/visitorPasses/modifyRules`, { maxDays: 7, deviceGroupId: null });
    }
  });

  it("the first phone that opens the link holds a signed pass credential; another phone is refused", async () => {
    const made = await invite(beta, { deviceIds: [13, 14] });
    const { id, link } = made.body.payload as { id: number; link: string };
    const token = link.split("#pass=")[1];
    const phoneA = `phone-a-${tag()}`;
    const first = await open(token, phoneA);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.payload).toMatchObject({ id: `v${id}`, oneEntry: false, used: false, doors: [{ id: 13 }, { id: 14 }] });
    const claims = decodeJwt(first.body.payload.credential.token);
    expect(claims).toMatchObject({ sub: `v${id}`, cid: "BETA", key: { id: `v${id}`, kind: "pass" }, doors: ["13", "14"], pid: phoneA });
    expect((await passRow(id)).installationId).toBe(phoneA);
    expect(await auditsNamed("Visitor Pass Opened", like(schema.activityLogs.detailsJson, `%"passId":${id}%`))).toHaveLength(1);

    const other = await open(token, `phone-b-${tag()}`);
    expect(other.status).toBe(409);
    expect(other.body.message).toBe("This pass is already open on another phone");
    // The bound phone refreshes as often as it likes; a wrong secret is an unknown link.
    expect((await open(token, phoneA)).status).toBe(200);
    expect((await open(`${id}.${"x".repeat(43)}`, phoneA)).status).toBe(404);
  });

  it("a door's report spends a one-entry pass everywhere and mails the host once; the log names the guest", async () => {
    const guestName = `Olga ${tag()}`;
    const made = await invite(beta, { oneEntry: true, guestName });
    const id = made.body.payload.id as number;
    const host = (
      await db()
        .select({ email: schema.users.email })
        .from(schema.users)
        .where(eq(schema.users.id, (await passRow(id)).hostUserId))
    )[0].email;
    const before = await head();
    const at = workerNow();
    await doorReport(`pass-test/${id}/1`, id, at);
    await doorReport(`pass-test/${id}/1`, id, at); // a gateway sending its batch again
    await doorReport(`pass-test/${id}/2`, id, at + 60_000);
    const row = await passRow(id);
    expect(row.usedAt).toBe(at);
    expect(row.firstEntryAt).toBe(at);
    expect((await feedPass(before, id))!.data.window).toMatchObject({ access: "oneTime", used: true });
    const arrivals = (await mailsTo(host)).filter((m) => m.dedupeKey === `pass-arrival:${id}`);
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0].body).toContain("came in through");
    const list = await api(beta, "GET", `${A}/visitorPasses/getPasses?state=used&pageSize=100`);
    expect(list.body.payload.rows.find((r: { id: number }) => r.id === id)).toMatchObject({ state: "used", firstEntryAt: at });
    // The entry is the guest's: named from the pass, since a guest is no user.
    const entries = await auditsNamed("Access Granted", like(schema.activityLogs.summary, `%visitor pass v${id} %`));
    const named = expect.stringMatching(new RegExp(`^Access granted at .+ with visitor pass v${id} \\(${guestName}\\): Pass$`));
    expect(entries.map((e) => e.summary)).toEqual([named, named]); // the two reports (the batch sent again is one)
    expect(entries[0].targetUserId).toBeNull();
    expect(JSON.parse(entries[0].details as string)).toMatchObject({ keyKind: "pass", guest: guestName });
  });

  it("a revoked pass leaves the feed and its link stops working; another company cannot revoke it", async () => {
    const made = await invite(beta);
    const { id, link } = made.body.payload as { id: number; link: string };
    expect((await api(acme, "POST", `${A}/visitorPasses/revokePass`, { id })).status).toBe(404);
    const before = await head();
    expect((await api(beta, "POST", `${A}/visitorPasses/revokePass`, { id })).status).toBe(200);
    expect(await feedPass(before, id)).toEqual({ type: "pass", op: "delete", id: `v${id}` });
    expect((await open(link.split("#pass=")[1], `phone-${tag()}`)).body).toMatchObject({ errorCode: "pass-invalid" });
    expect((await api(beta, "POST", `${A}/visitorPasses/revokePass`, { id })).status).toBe(409);
    expect((await api(beta, "GET", `${A}/visitorPasses/getPasses?state=revoked&pageSize=100`)).body.payload.rows.some((r: { id: number }) => r.id === id)).toBe(true);
  });

  describe("by text message", () => {
    /** A number of this file's own in the shared sink (the sink refuses numbers under +999). */
    const number = () => `+1555779${String(Math.floor(Math.random() * 10_000)).padStart(4, "0")}`;
    const sendTexts = () => drainTexts(env as never, { now: workerNow() + 1 });

    it("a guest given only a phone number is texted the link, in the invite's language, once", async () => {
      const phone = number();
      const made = await invite(beta, { guestEmail: "", guestPhone: phone, language: "es" });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const { link } = made.body.payload as { link: string };
      await sendTexts();
      await sendTexts(); // the request's own delivery and the cron's never send it twice
      await vi.waitFor(async () => expect(await textsTo(phone)).toHaveLength(1), { timeout: 10_000 });
      const [text] = await textsTo(phone);
      expect(text.body).toMatch(/le ha invitado a .* Su pase de visitante, para el primer móvil que lo abra: /);
      expect(text.body.endsWith(link)).toBe(true);
      // The texted link opens the pass.
      expect((await open(link.split("#pass=")[1], `phone-${tag()}`)).status).toBe(200);
    });

    it("a text still queued for a pass withdrawn since is not sent", async () => {
      const phone = number();
      const { id } = (await invite(beta)).body.payload as { id: number };
      expect((await api(beta, "POST", `${A}/visitorPasses/revokePass`, { id })).status).toBe(200);
      // As if the invite's text had waited (a provider down) until after the revocation.
      await db()
        .insert(schema.textOutbox)
        .values({ companyId: 4, userId: null, toNumber: phone, passId: id, body: "link", purpose: "Visitor pass link", dedupeKey: `pass-invite:${id}`, createdAt: workerNow() });
      await sendTexts();
      expect(await textsTo(phone)).toEqual([]);
      const [row] = await db()
        .select()
        .from(schema.textOutbox)
        .where(eq(schema.textOutbox.dedupeKey, `pass-invite:${id}`));
      expect(row.delivered).toBe(false);
    });

    it("a host who asked is texted at the guest's first entry, once; a host who did not is only mailed", async () => {
      const phone = number();
      const [hostUser] = await db()
        .select({ id: schema.users.id })
        .from(schema.users)
        .where(and(eq(schema.users.companyId, 4), isNull(schema.users.deletedAt), eq(schema.users.isInactive, false)))
        .limit(1);
      await db().update(schema.users).set({ phoneNumber: phone }).where(eq(schema.users.id, hostUser.id));
      const asked = (await invite(beta, { hostUserId: hostUser.id, hostText: true, guestName: "Luz Texted" })).body.payload.id as number;
      const silent = (await invite(beta, { hostUserId: hostUser.id, guestName: "Sol Mailed" })).body.payload.id as number;
      expect((await passRow(asked)).hostText).toBe(true);
      const at = workerNow();
      await doorReport(`pass-text/${asked}/1`, asked, at);
      await doorReport(`pass-text/${asked}/1`, asked, at); // a gateway sending its batch again
      await doorReport(`pass-text/${asked}/2`, asked, at + 60_000);
      await doorReport(`pass-text/${silent}/1`, silent, at);
      await sendTexts();
      await vi.waitFor(async () => expect(await textsTo(phone)).toHaveLength(1), { timeout: 10_000 });
      const texts = await textsTo(phone);
      expect(texts[0].body).toMatch(/^Luz Texted has arrived: came in through .+\.$/);
      expect(texts.some((t) => t.body.includes("Sol Mailed"))).toBe(false);
      const listed = await api(beta, "GET", `${A}/visitorPasses/getPasses?pageSize=100`);
      expect(listed.body.payload.rows.find((r: { id: number }) => r.id === asked)).toMatchObject({ hostText: true });
    });
  });
});
