import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, pageCookie, schema } from "./helpers";

const BASE = "/api/admin";
let acme: string;
let beta: string;
let auditor: string;

// Demo ids (db/seed/demo.ts): ACME admin 3, auditor 5, staff from 6 (13 flagged, 7 setup pending); BETA admin 4.
const ACME_ADMIN = 3;
const BETA_ADMIN = 4;

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
});

const newUser = (over: Record<string, unknown> = {}) => ({
  firstName: "Nora",
  lastName: "Nieto",
  displayName: "Nieto, Nora",
  emailId: `nora.${Math.random().toString(36).slice(2, 8)}@acme.example`,
  countryCode: "34",
  // A Spanish mobile (9 digits, read in +34).
  phoneNumer: `6${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
  userNotes: "",
  isSentinel: "0",
  isSuperAdmin: "0",
  isInstaller: "1",
  isFob: "0",
  isInactive: "0",
  isSOInterrupt: "1",
  ...over,
});

const auditCount = async (name: string, targetUserId: number) => (await auditsNamed(name, eq(schema.activityLogs.targetUserId, targetUserId))).length;

describe("GET /user/getAllUsers", () => {
  it("lists the company's active users in the spec's shape", async () => {
    const r = await api(acme, "GET", `${BASE}/user/getAllUsers`);
    expect(r.status).toBe(200);
    const rows = r.body.payload as any[];
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.every((u) => u.comp_id === rows[0].comp_id && u.is_inactive === false)).toBe(true);
    expect(rows.find((u) => u.id === ACME_ADMIN)).toMatchObject({
      dispay_name: "Admin, Alice",
      e_mail: "admin@acme.example",
      country_code: "001",
      company: { company_id: "ACME" },
      isSuperAdmin: true,
      is_sentinel: true,
    });
    expect(Object.keys(rows[0]).sort()).toEqual(
      [
        "id",
        "dispay_name",
        "e_mail",
        "phone_number",
        "country_code",
        "role_id",
        "comp_id",
        "company",
        "company_type",
        "is_installer",
        "is_sentinel",
        "is_inactive",
        "isSOInterrupt",
        "isSuperAdmin",
        "lastActivity",
        // The company's custom fields by key (decision 0095).
        "custom_fields",
      ].sort(),
    );
  });

  it("includes inactive users only when asked", async () => {
    const all = await api(acme, "GET", `${BASE}/user/getAllUsers?includeInactive=true`);
    const active = await api(acme, "GET", `${BASE}/user/getAllUsers?includeInactive=false`);
    expect(all.body.payload.length).toBeGreaterThan(active.body.payload.length);
    expect(all.body.payload.some((u: any) => u.is_inactive)).toBe(true);
  });

  it("refuses a role without the users module", async () => {
    expect((await api(auditor, "GET", `${BASE}/user/getAllUsers`)).status).toBe(403);
  });
});

describe("GET /user/getUserDetails", () => {
  it("returns the form shape", async () => {
    const r = await api(acme, "GET", `${BASE}/user/getUserDetails?id=13`);
    expect(r.status).toBe(200);
    expect(r.body.payload).toMatchObject({ id: 13, is_flagged: "1", company: { company_id: "ACME" }, password_reset_security: "admin" });
    expect(r.body.payload).toHaveProperty("isSOInterrupt");
    expect(r.body.payload).not.toHaveProperty("passwordHash");
  });

  it("answers 404 for another company's user and 400 without an id", async () => {
    expect((await api(acme, "GET", `${BASE}/user/getUserDetails?id=${BETA_ADMIN}`)).status).toBe(404);
    expect((await api(acme, "GET", `${BASE}/user/getUserDetails?id=abc`)).status).toBe(400);
    expect((await api(auditor, "GET", `${BASE}/user/getUserDetails?id=6`)).status).toBe(403);
  });
});

describe("POST /user/addUser", () => {
  it("creates the user, audits 'User Created' and marks setup pending", async () => {
    const body = newUser({ isSuperAdmin: "1" });
    const r = await api(acme, "POST", `${BASE}/user/addUser`, body);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("User Created");
    const id = r.body.payload.id as number;
    const row = await db().query.users.findFirst({ where: eq(schema.users.id, id) });
    expect(row).toMatchObject({ email: body.emailId, isSuperAdmin: true, isSentinel: true, isInstaller: true, accountSetupPending: true, phoneNumber: `+34${body.phoneNumer}` });
    expect(await auditCount("User Created", id)).toBe(1);
  });

  it.each([
    [{ firstName: "" }, "First name is required"],
    [{ lastName: " " }, "Last name is required"],
    [{ displayName: undefined }, "Display name is required"],
    [{ emailId: "" }, "Email is required"],
    [{ emailId: "not-an-email" }, "Email is invalid"],
    [{ countryCode: "" }, "Country code is required"],
    [{ countryCode: "1234" }, "Country code is invalid"],
    [{ countryCode: "999" }, "Country code is invalid"],
    [{ phoneNumer: "" }, "Cell is required"],
    [{ phoneNumer: "555-123-45" }, "Cell number is invalid"],
  ])("rejects %o with '%s'", async (over, message) => {
    const r = await api(acme, "POST", `${BASE}/user/addUser`, newUser(over));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });

  it("rejects a duplicate email or phone in the company, but not across companies", async () => {
    const dupEmail = await api(acme, "POST", `${BASE}/user/addUser`, newUser({ emailId: "ADMIN@acme.example" }));
    expect(dupEmail.status).toBe(422);
    expect(dupEmail.body.message).toBe("This email already exists in this company");
    const dupPhone = await api(acme, "POST", `${BASE}/user/addUser`, newUser({ countryCode: "001", phoneNumer: "5551000003" }));
    expect(dupPhone.status).toBe(422);
    expect(dupPhone.body.message).toBe("This phone number already exists in this company");
    const elsewhere = await api(beta, "POST", `${BASE}/user/addUser`, newUser({ emailId: "admin@acme.example", countryCode: "001", phoneNumer: "5551000003" }));
    expect(elsewhere.status).toBe(200);
  });

  it("refuses a caller without the add right", async () => {
    expect((await api(auditor, "POST", `${BASE}/user/addUser`, newUser())).status).toBe(403);
  });
});

describe("PUT /user/modifyUserDetails", () => {
  it("saves the form and audits 'User Modified'", async () => {
    const created = await api(acme, "POST", `${BASE}/user/addUser`, newUser());
    const id = created.body.payload.id;
    const r = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, newUser({ userId: id, firstName: "Nina", displayName: "Nieto, Nina", isInactive: "1" }));
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("User Modified");
    const row = await db().query.users.findFirst({ where: eq(schema.users.id, id) });
    expect(row).toMatchObject({ firstName: "Nina", isInactive: true });
    expect(await auditCount("User Modified", id)).toBe(1);
  });

  it("keeps its own email and phone but not another user's", async () => {
    const own = await api(acme, "GET", `${BASE}/user/getUserDetails?id=6`);
    const p = own.body.payload;
    const same = { userId: 6, firstName: p.firstName, lastName: p.lastName, displayName: p.displayName, emailId: p.email, countryCode: p.countryCode, phoneNumer: p.cell };
    expect((await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, same)).status).toBe(200);
    const taken = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, { ...same, emailId: "admin@acme.example" });
    expect(taken.status).toBe(422);
  });

  it("answers 404 for another company's user and changes nothing", async () => {
    const r = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, newUser({ userId: BETA_ADMIN }));
    expect(r.status).toBe(404);
    const row = await db().query.users.findFirst({ where: eq(schema.users.id, BETA_ADMIN) });
    expect(row?.firstName).toBe("Bob");
  });

  it("refuses a caller without the modify right", async () => {
    expect((await api(auditor, "PUT", `${BASE}/user/modifyUserDetails`, newUser({ userId: 6 }))).status).toBe(403);
  });
});

describe("DELETE /user/deleteUser", () => {
  it("removes the user and their keys, audits 'Removed User'", async () => {
    const id = (await api(acme, "POST", `${BASE}/user/addUser`, newUser())).body.payload.id;
    await api(acme, "POST", `${BASE}/user/assignKeyToUser`, { userId: id, eKey: 1, type: "device", accessType: "full_access" });
    const r = await api(acme, "DELETE", `${BASE}/user/deleteUser?id=${id}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Removed User");
    expect((await api(acme, "GET", `${BASE}/user/getUserDetails?id=${id}`)).status).toBe(404);
    expect(await db().select().from(schema.ekeyAssignments).where(eq(schema.ekeyAssignments.userId, id))).toHaveLength(0);
    expect(await auditCount("Removed User", id)).toBe(1);
  });

  it("refuses the caller's own account, other companies and callers without the delete right", async () => {
    const self = await api(acme, "DELETE", `${BASE}/user/deleteUser?id=${ACME_ADMIN}`);
    expect(self.status).toBe(422);
    expect(self.body.message).toBe("You cannot remove your own account");
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, ACME_ADMIN) }))?.deletedAt).toBeNull();
    expect((await api(acme, "DELETE", `${BASE}/user/deleteUser?id=${BETA_ADMIN}`)).status).toBe(404);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, BETA_ADMIN) }))?.deletedAt).toBeNull();
    expect((await api(auditor, "DELETE", `${BASE}/user/deleteUser?id=6`)).status).toBe(403);
  });
});

describe("account actions", () => {
  it("POST /user/flaggedUser approves a flagged account", async () => {
    const r = await api(acme, "POST", `${BASE}/user/flaggedUser`, { userId: 13, is_flagged: "0", support_ticket_id: null });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Account Approved");
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, 13) }))?.isFlagged).toBe(false);
    expect(await auditCount("Account Approved", 13)).toBe(1);
    expect((await api(acme, "POST", `${BASE}/user/flaggedUser`, { userId: BETA_ADMIN, is_flagged: "0" })).status).toBe(404);
    expect((await api(auditor, "POST", `${BASE}/user/flaggedUser`, { userId: 13, is_flagged: "0" })).status).toBe(403);
  });

  it("POST /user/flaggedUser links only a ticket of the caller's company", async () => {
    const ticket = async (companyId: number, userId: number, ticketNumber: string) =>
      (await db().insert(schema.supportTickets).values({ companyId, userId, ticketNumber }).returning({ id: schema.supportTickets.id }))[0]!.id;
    const own = await ticket(3, ACME_ADMIN, "T-FLAG-OWN");
    const foreign = await ticket(4, BETA_ADMIN, "T-FLAG-FOREIGN");
    const linked = async () => (await db().query.users.findFirst({ where: eq(schema.users.id, 13) }))?.supportTicketId;
    const before = await linked();
    for (const id of [foreign, "x"]) {
      const r = await api(acme, "POST", `${BASE}/user/flaggedUser`, { userId: 13, is_flagged: "1", support_ticket_id: id });
      expect(r.status).toBe(422);
      expect(r.body.message).toBe("The provided support ticket is invalid");
    }
    expect(await linked()).toBe(before);
    expect((await api(acme, "POST", `${BASE}/user/flaggedUser`, { userId: 13, is_flagged: "1", support_ticket_id: own })).status).toBe(200);
    expect(await linked()).toBe(own);
  });

  it("POST /user/resendInviteMail queues the mail only while setup is pending", async () => {
    const r = await api(acme, "POST", `${BASE}/user/resendInviteMail`, { userId: 7 });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Invite Resent");
    expect(await auditCount("Invite Resent", 7)).toBe(1);
    expect((await api(acme, "POST", `${BASE}/user/resendInviteMail`, { userId: ACME_ADMIN })).status).toBe(422);
    expect((await api(acme, "POST", `${BASE}/user/resendInviteMail`, { userId: BETA_ADMIN })).status).toBe(404);
    expect((await api(auditor, "POST", `${BASE}/user/resendInviteMail`, { userId: 7 })).status).toBe(403);
  });

  it("DELETE /user/forgetDevice clears the bound phone", async () => {
    await db().update(schema.users).set({ boundDeviceId: "phone-1" }).where(eq(schema.users.id, 8));
    const r = await api(acme, "DELETE", `${BASE}/user/forgetDevice?id=8`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Device Forgotten");
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, 8) }))?.boundDeviceId).toBeNull();
    expect((await api(acme, "DELETE", `${BASE}/user/forgetDevice?id=${BETA_ADMIN}`)).status).toBe(404);
    expect((await api(auditor, "DELETE", `${BASE}/user/forgetDevice?id=8`)).status).toBe(403);
  });

  it("DELETE /user/forgetDevice on a user without a phone says so and changes nothing", async () => {
    const created = await api(acme, "POST", `${BASE}/user/addUser`, newUser());
    const id = created.body.payload.id as number;
    const r = await api(acme, "DELETE", `${BASE}/user/forgetDevice?id=${id}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("No phone registered");
    expect(await auditCount("Device Forgotten", id)).toBe(0);

    // A phone session alone (a multi-phone company binds no device) is a phone to forget.
    const at = Date.now();
    const { companyId } = (await db().query.users.findFirst({ where: eq(schema.users.id, id) }))!;
    await db()
      .insert(schema.sessions)
      .values({ id: `forget-${id}`, userId: id, companyId, kind: "mobile", lastSeenAt: at, expiresAt: at + 3_600_000 });
    const forgotten = await api(acme, "DELETE", `${BASE}/user/forgetDevice?id=${id}`);
    expect(forgotten.body.message).toBe("Device Forgotten");
    expect(await auditCount("Device Forgotten", id)).toBe(1);
    expect(
      await db()
        .select()
        .from(schema.sessions)
        .where(eq(schema.sessions.id, `forget-${id}`)),
    ).toHaveLength(0);
  });

  it("POST /user/sendResetLink queues a link when reset security is admin, and only then", async () => {
    const before = (await db().select().from(schema.mailOutbox)).length;
    const r = await api(acme, "POST", `${BASE}/user/sendResetLink`, { userId: 6 });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Password Reset Link Sent");
    expect((await db().select().from(schema.mailOutbox)).length).toBe(before + 1);
    expect(await auditCount("Password Reset Link Sent", 6)).toBe(1);
    // BETA's reset security is email.
    expect((await api(beta, "POST", `${BASE}/user/sendResetLink`, { userId: BETA_ADMIN })).status).toBe(422);
    expect((await api(acme, "POST", `${BASE}/user/sendResetLink`, { userId: BETA_ADMIN })).status).toBe(404);
    expect((await api(auditor, "POST", `${BASE}/user/sendResetLink`, { userId: 6 })).status).toBe(403);
  });

  it("sendResetLink is a Super Admin privilege: the users modify right alone is refused, by the API and the page", async () => {
    const ACME_ADMIN = 3;
    const cookie = await pageCookie("acme");
    const outbox = async () => (await db().select().from(schema.mailOutbox)).length;
    const before = await outbox();
    const page = () =>
      consoleWorker.fetch(`${ORIGIN}/modifyUser?id=6`, {
        method: "POST",
        body: new URLSearchParams({ intent: "sendResetLink" }),
        headers: { Cookie: cookie, Origin: ORIGIN, Host: new URL(ORIGIN).host },
        redirect: "manual",
      });
    const screen = async () => (await consoleWorker.fetch(`${ORIGIN}/modifyUser?id=6`, { headers: { Cookie: cookie } })).text();
    await db().update(schema.users).set({ isSuperAdmin: false }).where(eq(schema.users.id, ACME_ADMIN));
    try {
      const r = await api(acme, "POST", `${BASE}/user/sendResetLink`, { userId: 6 });
      expect(r.status).toBe(403);
      expect((await page()).status).toBe(403);
      expect(await screen()).not.toContain('data-intent="sendResetLink"');
      expect(await outbox()).toBe(before);
    } finally {
      await db().update(schema.users).set({ isSuperAdmin: true }).where(eq(schema.users.id, ACME_ADMIN));
    }
    // As a super admin again, the page offers it and sends it.
    expect(await screen()).toContain('data-intent="sendResetLink"');
    expect((await page()).status).toBe(302);
    expect(await outbox()).toBe(before + 1);
  });
});
