/**
 * Users from and to CSV (decision 0089), through the admin API as a client calls it: the preview names
 * exactly the refused rows and writes nothing; the commit writes part by part; the same file imported
 * again changes nothing; an export imported back changes nothing; the file's encodings and separators;
 * the limits answer 4xx and store nothing; the right is checked before the body.
 */
import { and, eq, isNull, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, pageCookie, schema } from "./helpers";

const ACME = 3;
const u = schema.users;
const HEADER = "first_name,last_name,display_name,email,country_code,phone,role,status,external_id";
/** The export's and the template's: the import's columns and the optional key columns (e_keys, group_keys, fob). */
const EXPORT_HEADER = `${HEADER},e_keys,group_keys,fob`;
const preview = (token: string, csv: string) => api(token, "POST", "/api/admin/user/importUsersPreview", { csv });
const commit = (token: string, csv: string, chunk = 0) => api(token, "POST", "/api/admin/user/importUsers", { csv, chunk });
const acmeUsers = async (emailLike: string) =>
  db()
    .select()
    .from(u)
    .where(and(eq(u.companyId, ACME), isNull(u.deletedAt), like(u.email, emailLike)));

let admin: string;
beforeAll(async () => {
  admin = await login("acme");
});

describe("the preview", () => {
  it("names exactly the refused rows, each with its reasons, counts the rest, and writes nothing", async () => {
    const [known] = await db()
      .select()
      .from(u)
      .where(and(eq(u.companyId, ACME), eq(u.isSuperAdmin, false), eq(u.countryCode, "034"), isNull(u.roleId)))
      .limit(1);
    const csv = [
      HEADER,
      "Ana,Ruiz,,ana.prev@acme.example,034,699 000 001,Auditor,active,HR-1",
      'Ben,Cole,"Cole, Ben",ben.prev@acme.example,,(202) 555-0101,,inactive,',
      "Bad,Mail,,not-an-email,034,699000002,,,",
      "Bad,Phone,,bad.phone.prev@acme.example,034,12,,,",
      "Dup,Mail,,ANA.PREV@acme.example,034,699000003,,,",
      "No,Role,,norole.prev@acme.example,034,699000004,Janitor,maybe,",
      `${known.firstName},${known.lastName},"${known.displayName}",${known.email},034,${known.phoneNumber},,,`,
      `Renamed,${known.lastName},"${known.displayName}",${known.email},034,${known.phoneNumber},,,`,
    ].join("\n");
    const before = (
      await db()
        .select({ n: sql<number>`count(*)` })
        .from(u)
    )[0].n;
    const r = await preview(admin, csv);
    expect(r.status).toBe(200);
    expect(r.body.payload.counts).toEqual({ create: 2, change: 0, unchanged: 1, refuse: 5 });
    const refused = r.body.payload.rows.filter((x: { outcome: string }) => x.outcome === "refuse");
    expect(refused.map((x: { line: number; errors: unknown }) => [x.line, x.errors])).toEqual([
      [4, [{ column: "email", message: "Email is invalid" }]],
      [5, [{ column: "phone", message: "Cell number is invalid" }]],
      [6, [{ column: "email", message: "This e-mail is in an earlier row of the file" }]],
      [
        7,
        [
          { column: "status", message: "Status must be active or inactive" },
          { column: "role", message: "No role of this company has this name" },
        ],
      ],
      [
        9,
        [
          { column: "email", message: "This e-mail is in an earlier row of the file" },
          { column: "phone", message: "This phone number is in an earlier row of the file" },
        ],
      ],
    ]);
    expect(r.body.payload.rows.filter((x: { outcome: string }) => x.outcome === "create").map((x: { line: number }) => x.line)).toEqual([2, 3]);
    expect(
      (
        await db()
          .select({ n: sql<number>`count(*)` })
          .from(u)
      )[0].n,
    ).toBe(before);
    expect(await acmeUsers("%.prev@acme.example")).toEqual([]);
  });

  it("reads a UTF-8 file with a byte-order mark, separated by ';', with quoted cells", async () => {
    const csv = `\uFEFF${HEADER.replaceAll(",", ";")}\r\nJosé;Núñez;"Núñez; José";jose.bom@acme.example;ES;+34 699 000 010;;;\r\n`;
    const r = await preview(admin, csv);
    expect(r.status).toBe(200);
    expect(r.body.payload.counts).toEqual({ create: 1, change: 0, unchanged: 0, refuse: 0 });
    expect(r.body.payload.rows[0]).toMatchObject({ line: 2, email: "jose.bom@acme.example", name: "Núñez; José" });
  });
});

describe("the commit", () => {
  const csv = [
    HEADER,
    "Carla,Diaz,,carla.imp@acme.example,034,699 000 020,Auditor,,HR-20",
    "Dan,Eve,,dan.imp@acme.example,001,(202) 555-0120,,inactive,HR-21",
    "Bad,Row,,bad-row,034,699000022,,,",
  ].join("\n");

  it("writes nothing before it is called, then creates the users with E.164 phones, role, status and external id, audited", async () => {
    expect((await preview(admin, csv)).body.payload.counts).toEqual({ create: 2, change: 0, unchanged: 0, refuse: 1 });
    expect(await acmeUsers("%.imp@acme.example")).toEqual([]);
    const r = await commit(admin, csv);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: "Users imported", payload: { chunk: 0, chunks: 1, counts: { create: 2, change: 0, unchanged: 0, refuse: 1 } } });
    const rows = (await acmeUsers("%.imp@acme.example")).sort((a, b) => a.email.localeCompare(b.email));
    expect(rows.map((x) => [x.email, x.displayName, x.phoneNumber, x.countryCode, x.roleId, x.isInactive, x.externalId, x.accountSetupPending])).toEqual([
      ["carla.imp@acme.example", "Diaz, Carla", "+34699000020", "034", 4, false, "HR-20", true],
      ["dan.imp@acme.example", "Eve, Dan", "+12025550120", "001", null, true, "HR-21", true],
    ]);
    const created = await auditsNamed("User Created", eq(schema.activityLogs.companyId, ACME));
    expect(created.filter((a) => a.summary.includes(".imp@acme.example")).length).toBe(2);
    expect((await auditsNamed("Role Assigned")).filter((a) => a.summary === "Auditor → Diaz, Carla").length).toBe(1);
  });

  it("changes nothing when the same file is imported again", async () => {
    const before = await acmeUsers("%.imp@acme.example");
    const audits = (await auditsNamed("User Modified")).length + (await auditsNamed("User Created")).length;
    const again = await preview(admin, csv);
    expect(again.body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 2, refuse: 1 });
    expect((await commit(admin, csv)).body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 2, refuse: 1 });
    expect(await acmeUsers("%.imp@acme.example")).toEqual(before);
    expect((await auditsNamed("User Modified")).length + (await auditsNamed("User Created")).length).toBe(audits);
  });

  it("matches by external id before e-mail: a new e-mail changes the user it names", async () => {
    const changed = csv.replace("carla.imp@acme.example", "carla.new.imp@acme.example");
    const p = await preview(admin, changed);
    expect(p.body.payload.rows.find((x: { line: number }) => x.line === 2)).toMatchObject({ outcome: "change", changes: ["email"] });
    await commit(admin, changed);
    expect((await acmeUsers("carla%")).map((x) => [x.email, x.externalId])).toEqual([["carla.new.imp@acme.example", "HR-20"]]);
  });

  it("refuses in a later part the repeats the preview refused: a phone typed another way, an e-mail in another case", async () => {
    // Part 0 holds lines 2..251; line 252 opens part 1 and repeats line 2's phone, line 253 line 3's e-mail.
    const rows = Array.from(
      { length: 250 },
      (_, i) =>
        `P,${i},,part${i}@acme.example,034,698 ${String(i)
          .padStart(6, "0")
          .replace(/(\d{3})(\d{3})/, "$1 $2")},,,`,
    );
    const file = [HEADER, ...rows, "Again,Phone,,again.part@acme.example,,+34 698 000 000,,,", "Again,Mail,,PART1@ACME.EXAMPLE,034,698999999,,,"].join("\n");
    const p = await preview(admin, file);
    expect(p.body.payload.chunks).toBe(2);
    expect(p.body.payload.rows.filter((x: { outcome: string }) => x.outcome === "refuse").map((x: { line: number; errors: unknown }) => [x.line, x.errors])).toEqual([
      [252, [{ column: "phone", message: "This phone number is in an earlier row of the file" }]],
      [253, [{ column: "email", message: "This e-mail is in an earlier row of the file" }]],
    ]);
    expect((await commit(admin, file, 0)).body.payload.counts).toEqual({ create: 250, change: 0, unchanged: 0, refuse: 0 });
    expect((await commit(admin, file, 1)).body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 0, refuse: 2 });
    expect(await acmeUsers("again%")).toEqual([]);
  });

  it("refuses a part past the last", async () => {
    const r = await commit(admin, csv, 1);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("There is no such part of the file");
  });
});

describe("the export", () => {
  it("writes the import's columns, keeps formulas as text, and imported back changes nothing", async () => {
    const add = await api(admin, "POST", "/api/admin/user/addUser", {
      firstName: "=HYPERLINK(1)",
      lastName: "-Minus",
      displayName: "@Sum, x",
      emailId: "formula.exp@acme.example",
      countryCode: "034",
      phoneNumer: "699000030",
      sendInvite: "0",
    });
    expect(add.status).toBe(200);
    const res = await consoleWorker.fetch(`${ORIGIN}/api/admin/user/exportUsers`, { headers: { Authorization: admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const text = await res.text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(`\uFEFF${EXPORT_HEADER}`);
    expect(lines).toContain(`'=HYPERLINK(1),'-Minus,"'@Sum, x",formula.exp@acme.example,034,699000030,,active,,,,`);
    const live = await db()
      .select({ n: sql<number>`count(*)` })
      .from(u)
      .where(and(eq(u.companyId, ACME), isNull(u.deletedAt)));
    expect(lines.length - 1).toBe(live[0].n);
    const back = await preview(admin, text);
    expect(back.status).toBe(200);
    expect(back.body.payload.counts).toEqual({ create: 0, change: 0, unchanged: live[0].n, refuse: 0 });
  });

  it("gives the template: the header line alone", async () => {
    const res = await consoleWorker.fetch(`${ORIGIN}/api/admin/user/exportUsers?template=true`, { headers: { Authorization: admin } });
    expect(await res.text()).toBe(`\uFEFF${EXPORT_HEADER}\r\n`);
  });
});

describe("limits and rights", () => {
  const row = (i: number) => `F,L,,lim${i}@acme.example,,2025550${String(i).padStart(3, "0")},,,`;

  it.each([
    ["a file over 5 MB", () => `${HEADER}\n${row(1)}${" ".repeat(5_000_000)}`, 413, "The file is larger than 5 MB"],
    ["more than 20,000 rows", () => [HEADER, ...Array.from({ length: 20_001 }, (_, i) => `F,L,,x${i}@a.example,,1,,,`)].join("\n"), 413, "The file has more than 20,000 rows"],
    ["a first line without the template's columns", () => `first_name,last_name,email\n${row(2)}`, 422, expect.stringMatching(/^The first line must name these columns/)],
    ["an unclosed quote", () => `${HEADER}\n"F,L,,q@acme.example,,2025550999,,,`, 422, "A quoted cell is never closed"],
    ["no rows", () => `${HEADER}\n\n`, 422, "The file has no users below its first line"],
  ])("refuses %s with a 4xx and its message, storing nothing", async (_name, make, status, message) => {
    const csv = make();
    for (const r of [await preview(admin, csv), await commit(admin, csv)]) {
      expect(r.status).toBe(status);
      expect(r.body.message).toEqual(message);
    }
    expect(await acmeUsers("lim%")).toEqual([]);
  });

  it("refuses a body past 8 MiB before reading it, and an empty csv", async () => {
    const big = await api(admin, "POST", "/api/admin/user/importUsersPreview", { csv: "x".repeat(9 * 1024 * 1024) });
    expect(big.status).toBe(413);
    const empty = await preview(admin, "");
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("csv: Choose a CSV file");
  });

  it("answers 403 before reading the body to a caller without the users right, by API and on the page", async () => {
    const auditor = await login("auditor");
    for (const path of ["/api/admin/user/importUsersPreview", "/api/admin/user/importUsers"]) {
      const r = await api(auditor, "POST", path, "{ not json");
      expect(r.status).toBe(403);
    }
    expect((await consoleWorker.fetch(`${ORIGIN}/api/admin/user/exportUsers`, { headers: { Authorization: auditor } })).status).toBe(403);
    const cookie = await pageCookie("auditor");
    const page = await consoleWorker.fetch(`${ORIGIN}/importUsers`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=commit&chunk=0&csv=" + encodeURIComponent(`${HEADER}\nA,B,,page403@acme.example,,2025550777,,,`),
    });
    expect(page.status).toBe(403);
    expect(await acmeUsers("page403%")).toEqual([]);
  });
});
