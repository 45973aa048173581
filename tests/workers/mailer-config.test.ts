/** Mailer configuration: per-company and platform default, sealed passwords, test mail with the failing SMTP stage. */
import { env } from "cloudflare:test";
import { eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../app/services/mail/outbox.server";
import { ownMailServer } from "./mail-server";
import type { ReceivedMail } from "./smtp-global-setup";
import { api, auditsNamed, db, login, schema } from "./helpers";

const BASE = "/api/admin/company";
const ACME = 3;
const { smtpPort, inboxUrl } = await ownMailServer();
const inbox = async (): Promise<ReceivedMail[]> => (await fetch(inboxUrl)).json();

let root: string;
let acme: string;
let beta: string;
let auditor: string;

const config = (over: Record<string, unknown> = {}) => ({
  company_id: ACME,
  host_name: "127.0.0.1",
  port_name: smtpPort,
  user_name: "console",
  user_password: "local-only",
  ...over,
});

beforeAll(async () => {
  [root, acme, beta, auditor] = await Promise.all([login("root"), login("acme"), login("beta"), login("auditor")]);
  await fetch(inboxUrl, { method: "DELETE" });
  // The platform default points at the test SMTP server.
  await db().update(schema.mailerConfigs).set({ port: smtpPort }).where(isNull(schema.mailerConfigs.companyId));
});

describe("mailer configuration", () => {
  it("a company without its own mailer reads an empty one; the password is never returned", async () => {
    const r = await api(acme, "GET", `${BASE}/getCompanyMailerConfig?company_id=${ACME}`);
    expect(r.status).toBe(200);
    expect(r.body.payload).toMatchObject({ id: null, company_id: ACME, host_name: "", user_password: "", has_password: false });
    const platform = await api(root, "GET", `${BASE}/getCompanyMailerConfig`);
    expect(platform.body.payload).toMatchObject({ company_id: null, host_name: "127.0.0.1", user_name: "console", user_password: "", has_password: true });
  });

  it.each([
    ["host_name", "", "Required host name"],
    ["port_name", "", "Required port"],
    ["user_name", "", "Required user name"],
    ["user_password", "", "Required password"],
  ])("%s empty → '%s'", async (field, value, message) => {
    const r = await api(acme, "POST", `${BASE}/modifyCompanyMailerConfig`, config({ [field]: value }));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });

  it("saves the company's mailer with the password sealed, writes 'Mailer Config Updated', and the outbox still delivers with it", async () => {
    const r = await api(acme, "POST", `${BASE}/modifyCompanyMailerConfig`, config());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Mailer configuration saved successfully");
    const row = (await db().query.mailerConfigs.findFirst({ where: eq(schema.mailerConfigs.companyId, ACME) }))!;
    expect(row.userPassword).toMatch(/^enc:v1:/);
    expect(row.userPassword).not.toContain("local-only");
    const read = await api(acme, "GET", `${BASE}/getCompanyMailerConfig`);
    expect(read.body.payload).toMatchObject({ id: row.id, host_name: "127.0.0.1", user_password: "", has_password: true });
    expect(JSON.stringify(read.body)).not.toContain("local-only");
    const log = await auditsNamed("Mailer Config Updated");
    expect(log.map((l) => l.summary)).toContain(`Acme Corporation (ACME): 127.0.0.1:${smtpPort}`);

    await db().delete(schema.mailOutbox);
    await db().insert(schema.mailOutbox).values({ companyId: ACME, toAddress: "admin@acme.example", subject: "Sealed", body: "Hi" });
    expect(await drainOutbox(env)).toEqual({ sent: 1, failed: 0 });
    expect((await inbox()).some((m) => m.user === "console" && m.to.includes("admin@acme.example"))).toBe(true);
  });

  it("sends a test mail, and reports the SMTP stage that failed", async () => {
    await fetch(inboxUrl, { method: "DELETE" });
    const ok = await api(acme, "POST", `${BASE}/sendTestMail`, {});
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.message).toBe("Test mail sent");
    expect((await inbox()).map((m) => m.to)).toEqual([["admin@acme.example"]]);

    await api(acme, "POST", `${BASE}/modifyCompanyMailerConfig`, config({ user_password: "wrong" }));
    const auth = await api(acme, "POST", `${BASE}/sendTestMail`, {});
    expect(auth.status).toBe(422);
    expect(auth.body.message).toMatch(/^Test mail failed: .*AUTH PLAIN refused: 535/);

    await api(acme, "POST", `${BASE}/modifyCompanyMailerConfig`, config({ port_name: 1 }));
    const conn = await api(acme, "POST", `${BASE}/sendTestMail`, {});
    expect(conn.status).toBe(422);
    expect(conn.body.message).toMatch(/^Test mail failed: .*the connection/);
  });

  it("another company's mailer is 404; without the users or company module it is 403", async () => {
    expect((await api(beta, "GET", `${BASE}/getCompanyMailerConfig?company_id=${ACME}`)).status).toBe(404);
    const hijack = await api(beta, "POST", `${BASE}/modifyCompanyMailerConfig`, config({ host_name: "evil.example" }));
    expect(hijack.status).toBe(404);
    expect((await db().query.mailerConfigs.findFirst({ where: eq(schema.mailerConfigs.companyId, ACME) }))!.hostName).toBe("127.0.0.1");
    expect((await api(auditor, "GET", `${BASE}/getCompanyMailerConfig`)).status).toBe(403);
    // Root reaches a company in its view.
    const viaRoot = await api(root, "GET", `${BASE}/getCompanyMailerConfig?company_id=${ACME}`);
    expect(viaRoot.body.payload).toMatchObject({ company_id: ACME, host_name: "127.0.0.1" });
  });

  it("is in the OpenAPI document", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    for (const p of ["getCompanyMailerConfig", "modifyCompanyMailerConfig", "sendTestMail"]) expect(r.body.paths).toHaveProperty([`/api/admin/company/${p}`]);
  });
});
