import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, db, DEMO, login, ORIGIN, pageCookie, resetThrottles, schema, workerNow } from "./helpers";

const ADMIN = "/api/admin/support";
const PHONE = "/api/user/support/createTicket";
let acme: string;
let beta: string;
let root: string;
let auditor: string;

const notesOf = (ticketId: number) => db().select().from(schema.supportTicketNotes).where(eq(schema.supportTicketNotes.ticketId, ticketId));
const phoneTicket = {
  brand: "Samsung",
  phoneModel: "Galaxy A55",
  softwareVersion: "Android 15",
  appVersion: "4.3.0",
  ticketMode: 0,
  bluetoothStatus: "Off",
  bluetoothPermission: 1,
  locationPermission: "0",
  latitude: 41.3874,
  longitude: 2.1686,
  sentinelDateTime: 1_795_000_000_000,
  reportingDateTime: 1_795_000_042_000,
  devices: [
    { deviceId: 1, kind: "device", visible: true },
    { deviceId: 3, kind: "ekey", sentinel: 1 },
  ],
};

beforeAll(async () => {
  [acme, beta, root, auditor] = await Promise.all([login("acme"), login("beta"), login("root"), login("auditor")]);
});

describe("POST /api/user/support/createTicket (the phone app)", () => {
  it("opens a ticket for the signed-in user with the server's device names, and audits it", async () => {
    const r = await api(null, "POST", PHONE, phoneTicket, { Authorization: `Bearer ${acme}` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Support ticket created successfully");
    const { id, ticket_number } = r.body.payload;
    expect(ticket_number).toMatch(/^T-\d{6}$/);
    const row = (await db().query.supportTickets.findFirst({ where: eq(schema.supportTickets.id, id) }))!;
    expect(row).toMatchObject({
      companyId: 3,
      userId: 3,
      brand: "Samsung",
      ticketMode: 0,
      bluetoothStatus: "Off",
      bluetoothPermission: 1,
      locationPermission: 0,
      latitude: 41.3874,
    });
    expect(JSON.parse(row.devicesDetails)).toEqual({
      "1": { full_name: "Main Entrance", prefix: "AB", visible: true, device: true, sentinel: false },
      "3": expect.objectContaining({ visible: false, device: false, sentinel: true }),
    });
    expect(await auditsNamed("Support Ticket Created")).toContainEqual(expect.objectContaining({ companyId: 3, summary: ticket_number, by: 3, gps: "41.3874,2.1686" }));

    const details = await api(acme, "GET", `${ADMIN}/generatedTicketDetails?id=${id}`);
    expect(details.status).toBe(200);
    expect(details.body.payload).toMatchObject({
      ticket_number,
      ticket_mode: 0,
      bluetooth_status: "Off",
      bluetooth_permission: "1",
      location_permission: "0",
      reportedDevices: 2,
      active_lock: 1,
      assignedSeninel: 1,
      User: { id: 3, e_mail: "admin@acme.example" },
      serviceTicketNotes: [],
    });
  });

  it("numbers tickets uniquely", async () => {
    const a = await api(beta, "POST", PHONE, {});
    const b = await api(beta, "POST", PHONE, {});
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.payload.ticket_number).not.toBe(b.body.payload.ticket_number);
  });

  it("refuses bad coordinates, lengths and another company's device, writing nothing", async () => {
    const before = (await db().select().from(schema.supportTickets)).length;
    for (const bad of [{ latitude: 91, longitude: 0 }, { latitude: 10, longitude: -181 }, { latitude: 10 }]) {
      const r = await api(acme, "POST", PHONE, { ...phoneTicket, ...bad, longitude: "longitude" in bad ? bad.longitude : undefined, devices: [] });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("Invalid latitude or longitude");
    }
    const long = await api(acme, "POST", PHONE, { brand: "x".repeat(61) });
    expect(long.status).toBe(400);
    const foreign = await api(acme, "POST", PHONE, { ...phoneTicket, devices: [{ deviceId: 1 }, { deviceId: 13 }] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toBe("This device does not belong to your company");
    const tooMany = await api(acme, "POST", PHONE, { devices: Array.from({ length: 201 }, () => ({ deviceId: 1 })) });
    expect(tooMany.status).toBe(400);
    expect((await db().select().from(schema.supportTickets)).length).toBe(before);
  });

  it("limits how many tickets one user opens in a window", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api(beta, "POST", PHONE, { brand: `Flood ${i}` })).status);
    expect(statuses).toContain(429);
    const flood = await db().select().from(schema.supportTickets).where(eq(schema.supportTickets.userId, 4));
    expect(flood.filter((t) => t.brand.startsWith("Flood")).length).toBe(statuses.filter((s) => s === 200).length);
    expect(flood.filter((t) => t.createdAt >= workerNow() - 15 * 60_000).length).toBeLessThanOrEqual(10);
  });

  it("needs a session", async () => {
    expect((await api(null, "POST", PHONE, phoneTicket)).status).toBe(401);
  });

  it("answers the phone app at /api/mobile/support/createTicket with its mobile session, and only there", async () => {
    // The ACME staff user (6) signs in on a phone, as the app does.
    const admin = await db().query.users.findFirst({ where: eq(schema.users.id, 3) });
    await db().update(schema.users).set({ passwordHash: admin!.passwordHash, email: "staff.ticket@acme.example", boundDeviceId: null }).where(eq(schema.users.id, 6));
    await db().update(schema.companySettings).set({ require2fa: false, passwordExpiryMonths: 0 }).where(eq(schema.companySettings.companyId, 3));
    await resetThrottles();
    const signIn = await api(null, "POST", "/api/mobile/login", {
      companyId: "ACME",
      userName: "staff.ticket@acme.example",
      password: DEMO.acme.password,
      installationId: "inst-support-ticket-1",
      appVersion: "4.3.0",
    });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    const phone = `Bearer ${signIn.body.token}`;

    const r = await api(phone, "POST", "/api/mobile/support/createTicket", { ...phoneTicket, devices: [{ deviceId: 5, kind: "device", visible: 1 }] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Support ticket created successfully");
    const row = (await db().query.supportTickets.findFirst({ where: eq(schema.supportTickets.id, r.body.payload.id) }))!;
    expect(row).toMatchObject({ companyId: 3, userId: 6, brand: "Samsung", ticketNumber: r.body.payload.ticket_number });
    const listed = await api(acme, "GET", `${ADMIN}/getAllGeneratedTickets`);
    expect(listed.body.payload.map((x: { id: number }) => x.id)).toContain(row.id);

    // A console token is not a phone session there; a phone session is refused on the console's APIs.
    expect((await api(acme, "POST", "/api/mobile/support/createTicket", phoneTicket)).status).toBe(401);
    expect((await api(phone, "GET", `${ADMIN}/getAllGeneratedTickets`)).status).toBe(401);
    const doc = (await api(null, "GET", "/api/openapi.json")).body;
    expect(doc.paths["/api/mobile/support/createTicket"].post).toBeTruthy();
  });

  it("is documented in the OpenAPI document", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    expect(r.body.paths["/api/user/support/createTicket"].post).toBeTruthy();
    expect(r.body.paths["/api/admin/support/getAllGeneratedTickets"].get).toBeTruthy();
  });
});

describe("GET /support/getAllGeneratedTickets", () => {
  it("lists only the caller's company's tickets, newest first", async () => {
    const r = await api(acme, "GET", `${ADMIN}/getAllGeneratedTickets`);
    expect(r.status).toBe(200);
    const numbers = r.body.payload.map((t: { ticket_number: string }) => t.ticket_number);
    expect(numbers).toEqual(expect.arrayContaining(["T-100001", "T-100002"]));
    expect(numbers).not.toContain("T-100003");
    expect(r.body.payload.every((t: { company: { id: number } }) => t.company.id === 3)).toBe(true);
    const created = r.body.payload.map((t: { createdAt: number }) => t.createdAt);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(r.body.payload.find((t: { ticket_number: string }) => t.ticket_number === "T-100001")).toMatchObject({ User: { id: 12 }, company: { name: expect.any(String) } });
  });

  it("gives the platform every company's tickets with their company", async () => {
    const r = await api(root, "GET", `${ADMIN}/getAllGeneratedTickets`);
    expect(r.status).toBe(200);
    const companies = new Set(r.body.payload.map((t: { company: { id: number } }) => t.company.id));
    expect(companies.has(3)).toBe(true);
    expect(companies.has(4)).toBe(true);
  });

  it("gives a reseller holding the company module the tickets of the companies it oversees only", async () => {
    const grant = { roleId: 2, companyId: 2, moduleKey: "company" }; // the demo reseller's role, in RSL1
    await db().insert(schema.roleModules).values(grant);
    try {
      const reseller = await login("var");
      const r = await api(reseller, "GET", `${ADMIN}/getAllGeneratedTickets`);
      expect(r.status).toBe(200);
      const companies = new Set(r.body.payload.map((t: { company: { id: number } }) => t.company.id));
      expect(companies.has(3)).toBe(true); // ACME, its customer
      expect(companies.has(4)).toBe(false); // BETA, directly under the platform
      expect((await api(reseller, "GET", `${ADMIN}/generatedTicketDetails?id=1`)).status).toBe(200);
      expect((await api(reseller, "GET", `${ADMIN}/generatedTicketDetails?id=3`)).status).toBe(404);
      const before = (await notesOf(3)).length;
      expect((await api(reseller, "POST", `${ADMIN}/createSupportNotes`, { notes: "Not my customer", serviceTicketId: 3 })).status).toBe(404);
      expect((await notesOf(3)).length).toBe(before);
    } finally {
      await db()
        .delete(schema.roleModules)
        .where(and(eq(schema.roleModules.roleId, 2), eq(schema.roleModules.moduleKey, "company")));
    }
  });

  it("refuses a role without the support module", async () => {
    expect((await api(auditor, "GET", `${ADMIN}/getAllGeneratedTickets`)).status).toBe(403);
    expect((await api(auditor, "GET", `${ADMIN}/generatedTicketDetails?id=1`)).status).toBe(403);
  });
});

describe("GET /support/generatedTicketDetails", () => {
  it("returns the ticket with its phone, position, devices and notes", async () => {
    const r = await api(acme, "GET", `${ADMIN}/generatedTicketDetails?id=1`);
    expect(r.status).toBe(200);
    expect(r.body.payload).toMatchObject({
      id: 1,
      ticket_number: "T-100001",
      brand: "Samsung",
      phone_model: "Galaxy S24",
      latitude: 40.4168,
      longitude: -3.7038,
      gps_location: "40.4168,-3.7038",
      devices_details: { "2": { full_name: "", prefix: "BL" } },
    });
    expect(r.body.payload.serviceTicketNotes[0]).toMatchObject({ note_description: "Asked the user to re-enable Bluetooth.", User: { dispay_name: expect.any(String) } });
  });

  it("answers 404 for another company's ticket and 400 without an id", async () => {
    expect((await api(acme, "GET", `${ADMIN}/generatedTicketDetails?id=3`)).status).toBe(404);
    expect((await api(beta, "GET", `${ADMIN}/generatedTicketDetails?id=1`)).status).toBe(404);
    expect((await api(acme, "GET", `${ADMIN}/generatedTicketDetails`)).status).toBe(400);
    expect((await api(root, "GET", `${ADMIN}/generatedTicketDetails?id=3`)).status).toBe(200);
  });
});

describe("POST /support/createSupportNotes", () => {
  it("adds a note by the caller with its audit entry", async () => {
    const r = await api(acme, "POST", `${ADMIN}/createSupportNotes`, { notes: "  Called the user back.  ", serviceTicketId: 2, userId: 3 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Note added successfully");
    expect(await notesOf(2)).toContainEqual(expect.objectContaining({ note: "Called the user back.", userId: 3, companyId: 3, createdAt: expect.any(Number) }));
    expect(await auditsNamed("Support Note Added")).toContainEqual(expect.objectContaining({ companyId: 3, summary: "T-100002", by: 3 }));
    const details = await api(acme, "GET", `${ADMIN}/generatedTicketDetails?id=2`);
    expect(details.body.payload.serviceTicketNotes[0].note_description).toBe("Called the user back.");
    expect(details.body.payload.serviceTicketNotes[0].createdAt).toBeGreaterThanOrEqual(workerNow() - 60_000);
  });

  it("refuses an empty note with the spec's message", async () => {
    for (const notes of ["", "   ", undefined]) {
      const r = await api(acme, "POST", `${ADMIN}/createSupportNotes`, { notes, serviceTicketId: 1 });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("Note is required");
    }
    const long = await api(acme, "POST", `${ADMIN}/createSupportNotes`, { notes: "x".repeat(2001), serviceTicketId: 1 });
    expect(long.status).toBe(400);
    expect((await notesOf(1)).length).toBe(1);
  });

  it("leaves another company's ticket unchanged (404) and refuses the read-only role", async () => {
    const before = (await notesOf(3)).length;
    const r = await api(acme, "POST", `${ADMIN}/createSupportNotes`, { notes: "Not mine", serviceTicketId: 3 });
    expect(r.status).toBe(404);
    expect((await api(auditor, "POST", `${ADMIN}/createSupportNotes`, { notes: "Read only", serviceTicketId: 1 })).status).toBe(403);
    expect((await notesOf(3)).length).toBe(before);
    expect(
      (
        await db()
          .select()
          .from(schema.supportTicketNotes)
          .where(and(eq(schema.supportTicketNotes.ticketId, 1), eq(schema.supportTicketNotes.note, "Read only")))
      ).length,
    ).toBe(0);
  });

  it("refuses a note to a role that reads tickets without the add right (the read-only role given the support module)", async () => {
    const grant = { roleId: 4, companyId: 3, moduleKey: "support" };
    await db().insert(schema.roleModules).values(grant);
    try {
      const reader = await login("auditor");
      expect((await api(reader, "GET", `${ADMIN}/generatedTicketDetails?id=1`)).status).toBe(200);
      const before = (await notesOf(1)).length;
      const r = await api(reader, "POST", `${ADMIN}/createSupportNotes`, { notes: "Read only", serviceTicketId: 1 });
      expect(r.status).toBe(403);
      expect((await notesOf(1)).length).toBe(before);
    } finally {
      await db()
        .delete(schema.roleModules)
        .where(and(eq(schema.roleModules.roleId, 4), eq(schema.roleModules.moduleKey, "support")));
    }
  });

  it("lets the platform note any company's ticket; the note stays with the ticket's company", async () => {
    const r = await api(root, "POST", `${ADMIN}/createSupportNotes`, { notes: "Platform follow-up", serviceTicketId: 3 });
    expect(r.status).toBe(200);
    expect(await notesOf(3)).toContainEqual(expect.objectContaining({ note: "Platform follow-up", companyId: 4, userId: 1 }));
  });
});

describe("GET /support/getFaqs", () => {
  it("reads the entries of a language in order", async () => {
    const en = await api(acme, "GET", `${ADMIN}/getFaqs?language=en`);
    expect(en.status).toBe(200);
    expect(en.body.payload[0].question).toBe("How do I add a user?");
    const es = await api(acme, "GET", `${ADMIN}/getFaqs?language=es`);
    expect(es.body.payload[0].question).toBe("¿Cómo añado un usuario?");
    expect((await api(auditor, "GET", `${ADMIN}/getFaqs`)).status).toBe(403);
  });
});

describe("GET /user/getLastReportedLocation", () => {
  it("answers for the caller's device, 404 for another company's, 403 without the devices module", async () => {
    const r = await api(acme, "GET", "/api/admin/user/getLastReportedLocation?deviceId=1");
    expect(r.status).toBe(200);
    expect(typeof r.body.payload.latitude).toBe("number");
    expect((await api(beta, "GET", "/api/admin/user/getLastReportedLocation?deviceId=1")).status).toBe(404);
    expect((await api(root, "GET", "/api/admin/user/getLastReportedLocation?deviceId=1")).status).toBe(403);
    for (const bad of ["", "?deviceId=x", "?deviceId=-1"]) expect((await api(acme, "GET", `/api/admin/user/getLastReportedLocation${bad}`)).status, bad).toBe(400);
  });
});

describe("FAQ editing (root only)", () => {
  const list = async (language: "en" | "es") =>
    (await api(acme, "GET", `${ADMIN}/getFaqs?language=${language}`)).body.payload as { id: number; question: string; answer: string }[];

  it("root adds, edits, orders and deletes; companies read the result in their language", async () => {
    const add = await api(root, "POST", `${ADMIN}/addFaq`, { language: "es", question: "¿Puedo abrir con el móvil?", answer: "Sí, con una llave electrónica." });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(add.body.message).toBe("FAQ created successfully");
    let es = await list("es");
    const added = es[es.length - 1];
    expect(added.question).toBe("¿Puedo abrir con el móvil?");
    expect((await list("en")).map((f) => f.question)).not.toContain(added.question);

    const upd = await api(root, "PUT", `${ADMIN}/updateFaq`, { id: added.id, language: "es", question: "¿Puedo abrir con el teléfono?", answer: "Sí." });
    expect(upd.status).toBe(200);
    expect((await list("es")).find((f) => f.id === added.id)).toMatchObject({ question: "¿Puedo abrir con el teléfono?", answer: "Sí." });

    const before = (await list("es")).map((f) => f.id);
    expect((await api(root, "PUT", `${ADMIN}/moveFaq`, { id: added.id, direction: "up" })).status).toBe(200);
    es = await list("es");
    const at = before.indexOf(added.id);
    expect(es.map((f) => f.id)).toEqual([...before.slice(0, at - 1), added.id, before[at - 1], ...before.slice(at + 1)]);
    expect((await api(root, "PUT", `${ADMIN}/moveFaq`, { id: es[0].id, direction: "up" })).status).toBe(200);
    expect((await list("es")).map((f) => f.id)).toEqual(es.map((f) => f.id));

    const del = await api(root, "DELETE", `${ADMIN}/deleteFaq?id=${added.id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toBe("FAQ deleted successfully");
    expect((await list("es")).map((f) => f.id)).not.toContain(added.id);
    const log = (await auditsNamed("FAQ Created")).concat(await auditsNamed("FAQ Modified"), await auditsNamed("FAQ Deleted"));
    expect(log.filter((l) => l.companyId === 1 && l.by === 1).length).toBeGreaterThanOrEqual(4);
  });

  it("validates with the messages and changes nothing", async () => {
    const noQuestion = await api(root, "POST", `${ADMIN}/addFaq`, { language: "en", question: "  ", answer: "x" });
    expect(noQuestion.status).toBe(400);
    expect(noQuestion.body.message).toBe("Question is required");
    const noAnswer = await api(root, "POST", `${ADMIN}/addFaq`, { language: "en", question: "Q?" });
    expect(noAnswer.status).toBe(400);
    expect(noAnswer.body.message).toBe("Answer is required");
    expect((await api(root, "POST", `${ADMIN}/addFaq`, { language: "fr", question: "Q?", answer: "A" })).status).toBe(400);
    expect((await api(root, "POST", `${ADMIN}/addFaq`, { language: "en", question: "q".repeat(301), answer: "A" })).status).toBe(400);
    expect((await api(root, "PUT", `${ADMIN}/updateFaq`, { id: 9999, language: "en", question: "Q?", answer: "A" })).status).toBe(404);
    expect((await list("en")).map((f) => f.question)).not.toContain("Q?");
  });

  it("is refused to companies, even with the support module", async () => {
    const [first] = await list("en");
    expect((await api(acme, "POST", `${ADMIN}/addFaq`, { language: "en", question: "Mine?", answer: "A" })).status).toBe(403);
    expect((await api(acme, "PUT", `${ADMIN}/updateFaq`, { id: first.id, language: "en", question: "Changed?", answer: "A" })).status).toBe(403);
    expect((await api(acme, "PUT", `${ADMIN}/moveFaq`, { id: first.id, direction: "down" })).status).toBe(403);
    expect((await api(acme, "DELETE", `${ADMIN}/deleteFaq?id=${first.id}`)).status).toBe(403);
    expect((await api(auditor, "DELETE", `${ADMIN}/deleteFaq?id=${first.id}`)).status).toBe(403);
    expect((await list("en"))[0]).toEqual(first);
  });
});

describe("the support pages", () => {
  const HOST = new URL(ORIGIN).host;
  const page = (cookie: string, path: string, form?: URLSearchParams) =>
    consoleWorker.fetch(ORIGIN + path, { method: form ? "POST" : "GET", body: form, headers: { Host: HOST, Cookie: cookie, Origin: ORIGIN }, redirect: "manual" });

  it("a note posted to another company's ticket is refused and stores nothing", async () => {
    const cookie = await pageCookie("acme");
    const before = (await notesOf(3)).length;
    // Posted as the console's client posts (`.data`): the action's own status comes back.
    const res = await page(cookie, "/supportTicketDetails.data?id=3", new URLSearchParams({ intent: "note", notes: "Not mine either" }));
    expect(res.status).toBe(404);
    await res.body?.cancel();
    const empty = await page(cookie, "/supportTicketDetails.data?id=1", new URLSearchParams({ intent: "note", notes: " " }));
    expect(empty.status).toBe(400);
    await empty.body?.cancel();
    expect((await notesOf(3)).length).toBe(before);
    const foreign = await page(cookie, "/supportTicketDetails?id=3");
    expect(foreign.status).toBe(302);
    expect(foreign.headers.get("Location")).toBe("/support");
  });

  it("the read-only role gets 403 from every support page; a company gets 403 from the FAQ editor", async () => {
    const cookie = await pageCookie("auditor");
    for (const path of ["/support", "/supportTicketDetails?id=1", "/supportTicketGPSDetails?id=1", "/adminSupport"]) {
      const res = await page(cookie, path);
      expect(res.status, path).toBe(403);
      await res.body?.cancel();
    }
    const acmeCookie = await pageCookie("acme");
    for (const path of ["/adminSupport", "/addFaq", "/modifyFaq?id=1"]) {
      const res = await page(acmeCookie, path);
      expect(res.status, path).toBe(403);
      await res.body?.cancel();
    }
  });

  it("the page CSP allows map tiles from the configured origin only", async () => {
    const res = await page(await pageCookie("acme"), "/supportTicketDetails?id=1");
    expect(res.status).toBe(200);
    const csp = res.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;");
    expect(await res.text()).toContain("https://tile.openstreetmap.org/{z}/{x}/{y}.png");
  });

  it("lists 25 tickets a page; /adminSupport adds the company column; a company without tickets sees the empty state", async () => {
    // D1 binds at most 100 values a statement: a few rows at a time.
    const paged = Array.from({ length: 30 }, (_, i) => ({ companyId: 3, ticketNumber: `T-P${String(i).padStart(3, "0")}`, userId: 3, createdAt: 1000 + i }));
    for (let i = 0; i < paged.length; i += 5)
      await db()
        .insert(schema.supportTickets)
        .values(paged.slice(i, i + 5));
    const acmeCookie = await pageCookie("acme");
    const html = async (cookie: string, path: string) => {
      const res = await page(cookie, path);
      expect(res.status, path).toBe(200);
      return res.text();
    };
    const rows = (text: string) => text.match(/aria-label="Open ticket /g)?.length ?? 0;
    const total = (await api(acme, "GET", `${ADMIN}/getAllGeneratedTickets`)).body.payload.length;
    expect(rows(await html(acmeCookie, "/support"))).toBe(25);
    expect(rows(await html(acmeCookie, "/support?page=2"))).toBe(Math.min(25, total - 25));
    expect(await html(acmeCookie, "/support")).not.toContain(">Company<");

    const platform = await html(await pageCookie("root"), "/adminSupport?pageSize=100&sort=company");
    expect(platform).toContain(">Company<");
    expect(platform).toContain("Acme Corporation");
    expect(platform).toContain("Beta Labs");

    await db().delete(schema.supportTickets).where(eq(schema.supportTickets.companyId, 4));
    const empty = await html(await pageCookie("beta"), "/support");
    expect(empty).toContain("No support tickets yet");
    expect(rows(empty)).toBe(0);
  });
});
