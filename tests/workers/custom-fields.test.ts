/**
 * Custom fields for users (issue 32, decision 0095): definitions kept to their company and checked, a
 * user's values through the admin API (typed, normalised, required enforced), the users list's search and its
 * filter by a choice field (page and API), the CSV export's columns and the import reading them.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, consoleWorker, db, login, ORIGIN, pageCookie, schema } from "./helpers";

const BASE = "/api/admin";
let acme: string;
let beta: string;
let auditor: string;

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
});

const tag = () => Math.random().toString(36).slice(2, 8);
const newUser = (over: Record<string, unknown> = {}) => ({
  firstName: "Cora",
  lastName: "Campos",
  displayName: "Campos, Cora",
  emailId: `cora.${tag()}@acme.example`,
  countryCode: "34",
  phoneNumer: `6${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
  isSOInterrupt: "1",
  sendInvite: "0",
  ...over,
});
const addField = (token: string, body: Record<string, unknown>) => api(token, "POST", `${BASE}/customFields/addField`, body);

describe("custom field definitions", () => {
  it("are created, read, modified and deleted by the company's admin only, and checked", async () => {
    const key = `dept_${tag()}`;
    const made = await addField(acme, { key, label: "Department", type: "choice", choices: ["Sales", "Support"], showInList: true });
    expect(made.status).toBe(200);
    const id = made.body.payload.id as number;
    const read = await api(acme, "GET", `${BASE}/customFields/getField?id=${id}`);
    expect(read.body.payload).toMatchObject({ key, label: "Department", type: "choice", choices: ["Sales", "Support"], required: false, showInList: true });

    // Checks: a bad key, a choice field without choices, a repeated choice, an unknown type, a key in use.
    expect((await addField(acme, { key: "Bad Key", label: "X", type: "text" })).body.message).toBe(
      "key: Use lower case letters, digits and underscores, starting with a letter (at most 40)",
    );
    expect((await addField(acme, { key: `c_${tag()}`, label: "X", type: "choice" })).body.message).toBe("choices: A choice field needs at least one choice");
    expect((await addField(acme, { key: `c_${tag()}`, label: "X", type: "choice", choices: ["A", "a"] })).status).toBe(400);
    expect((await addField(acme, { key: `c_${tag()}`, label: "X", type: "colour" })).body.message).toBe("type: Type must be text, number, date or choice");
    expect((await addField(acme, { key: `c_${tag()}`, label: "x".repeat(61), type: "text" })).status).toBe(400);
    const taken = await addField(acme, { key, label: "Again", type: "text" });
    expect(taken.status).toBe(422);
    expect(taken.body.message).toBe("Another field already uses this key");

    // Another company neither reads nor changes it; a read-only role cannot add one.
    expect((await api(beta, "GET", `${BASE}/customFields/getField?id=${id}`)).status).toBe(404);
    expect((await api(beta, "PUT", `${BASE}/customFields/modifyField`, { id, key, label: "Taken over", type: "text" })).status).toBe(404);
    expect((await api(beta, "DELETE", `${BASE}/customFields/deleteField?id=${id}`)).status).toBe(404);
    expect((await api(beta, "GET", `${BASE}/customFields/getFields`)).body.payload.some((f: { id: number }) => f.id === id)).toBe(false);
    expect((await addField(auditor, { key: `c_${tag()}`, label: "X", type: "text" })).status).toBe(403);

    const modified = await api(acme, "PUT", `${BASE}/customFields/modifyField`, { id, key, label: "Team", type: "choice", choices: ["Sales", "Support", "Field"] });
    expect(modified.status).toBe(200);
    expect((await api(acme, "GET", `${BASE}/customFields/getField?id=${id}`)).body.payload).toMatchObject({ label: "Team", choices: ["Sales", "Support", "Field"] });
    expect((await api(acme, "DELETE", `${BASE}/customFields/deleteField?id=${id}`)).status).toBe(200);
    expect((await api(acme, "GET", `${BASE}/customFields/getField?id=${id}`)).status).toBe(404);
    // Its key is free again.
    const again = await addField(acme, { key, label: "Department", type: "text" });
    expect(again.status).toBe(200);
    await api(acme, "DELETE", `${BASE}/customFields/deleteField?id=${again.body.payload.id}`);
  });
});

describe("a user's custom field values", () => {
  it("round-trip through the API typed and normalised; a required one missing is refused; the list searches them", async () => {
    const t = tag();
    const ids: number[] = [];
    const field = async (body: Record<string, unknown>) => {
      const r = await addField(acme, body);
      expect(r.status).toBe(200);
      ids.push(r.body.payload.id);
      return r.body.payload.id as number;
    };
    try {
      await field({ key: `team_${t}`, label: "Team", type: "choice", choices: ["Sales", "Support"] });
      await field({ key: `badge_${t}`, label: "Badge", type: "text" });
      await field({ key: `floor_${t}`, label: "Floor", type: "number" });
      await field({ key: `start_${t}`, label: "Start", type: "date" });

      const made = await api(
        acme,
        "POST",
        `${BASE}/user/addUser`,
        newUser({ custom_fields: { [`team_${t}`]: "support", [`badge_${t}`]: ` Z${t} `, [`floor_${t}`]: "3,50", [`start_${t}`]: "2027-02-28" } }),
      );
      expect(made.status).toBe(200);
      const userId = made.body.payload.id as number;
      const details = await api(acme, "GET", `${BASE}/user/getUserDetails?id=${userId}`);
      expect(details.body.payload.custom_fields).toEqual({ [`team_${t}`]: "Support", [`badge_${t}`]: `Z${t}`, [`floor_${t}`]: "3.5", [`start_${t}`]: "2027-02-28" });

      // Bad values are 400 with the field's key; nothing changes.
      for (const [k, value, message] of [
        [`floor_${t}`, "three", "Enter a number"],
        [`start_${t}`, "2027-02-30", "Enter a date as YYYY-MM-DD"],
        [`team_${t}`, "Marketing", "Choose one of the field's choices"],
        [`nope_${t}`, "x", "Unknown custom field"],
      ]) {
        const r = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, { ...newUser(), userId, emailId: details.body.payload.email, custom_fields: { [k]: value } });
        expect(r.status).toBe(400);
        expect(r.body.message).toBe(`${k}: ${message}`);
      }

      // The API changes the fields it names and keeps the others; null clears.
      const changed = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, {
        ...newUser(),
        userId,
        emailId: details.body.payload.email,
        custom_fields: { [`floor_${t}`]: 7, [`start_${t}`]: null },
      });
      expect(changed.status).toBe(200);
      const after = await api(acme, "GET", `${BASE}/user/getUserDetails?id=${userId}`);
      expect(after.body.payload.custom_fields).toEqual({ [`team_${t}`]: "Support", [`badge_${t}`]: `Z${t}`, [`floor_${t}`]: "7" });

      // The list carries the values and its search matches the start of a text value.
      const list = await api(acme, "GET", `${BASE}/user/getAllUsers?q=z${t}`);
      expect(list.body.payload.map((r: { id: number }) => r.id)).toEqual([userId]);
      expect(list.body.payload[0].custom_fields[`badge_${t}`]).toBe(`Z${t}`);

      // Another company's user cannot be given values of this company's fields (unknown there).
      const betaUser = await api(beta, "POST", `${BASE}/user/addUser`, newUser({ emailId: `cora.${t}@beta.example`, custom_fields: { [`badge_${t}`]: "x" } }));
      expect(betaUser.status).toBe(400);

      // A required field: a new user without it is refused, and so is clearing it.
      await field({ key: `cost_${t}`, label: "Cost centre", type: "text", required: true });
      const missing = await api(acme, "POST", `${BASE}/user/addUser`, newUser());
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe(`cost_${t}: This field is required`);
      const stillMissing = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, { ...newUser(), userId, emailId: details.body.payload.email });
      expect(stillMissing.status).toBe(400);
      const given = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, {
        ...newUser(),
        userId,
        emailId: details.body.payload.email,
        custom_fields: { [`cost_${t}`]: "CC-1" },
      });
      expect(given.status).toBe(200);
      const cleared = await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, { ...newUser(), userId, emailId: details.body.payload.email, custom_fields: { [`cost_${t}`]: "" } });
      expect(cleared.status).toBe(400);
      const stored = await db()
        .select()
        .from(schema.userFieldValues)
        .where(and(eq(schema.userFieldValues.userId, userId), eq(schema.userFieldValues.value, "CC-1")));
      expect(stored).toHaveLength(1);
    } finally {
      for (const id of ids) await api(acme, "DELETE", `${BASE}/customFields/deleteField?id=${id}`);
    }
  });
});

describe("custom fields in the users CSV", () => {
  it("the export has a column per field headed by its key; the import sets values, refuses bad ones per row, and again changes nothing", async () => {
    const t = tag();
    const ids: number[] = [];
    try {
      for (const body of [
        { key: `site_${t}`, label: "Site", type: "choice", choices: ["Madrid", "Lisboa"] },
        { key: `since_${t}`, label: "Since", type: "date" },
      ]) {
        const r = await addField(acme, body);
        expect(r.status).toBe(200);
        ids.push(r.body.payload.id);
      }
      const email = `csv.${t}@acme.example`;
      const made = await api(acme, "POST", `${BASE}/user/addUser`, newUser({ emailId: email, custom_fields: { [`site_${t}`]: "Madrid" } }));
      expect(made.status).toBe(200);

      const res = await consoleWorker.fetch(`${ORIGIN}/api/admin/user/exportUsers`, { headers: { Authorization: acme } });
      const lines = (await res.text()).trimEnd().split("\r\n");
      expect(lines[0].split(",").slice(-2)).toEqual([`site_${t}`, `since_${t}`]);
      expect(
        lines
          .find((l) => l.includes(email))!
          .split(",")
          .slice(-2),
      ).toEqual(["Madrid", ""]);

      // The same header: one row sets both values (any case for a choice), one has a bad date, one a bad choice.
      const header = lines[0];
      const exported = lines.find((l) => l.includes(email))!;
      expect(exported.endsWith(",Madrid,")).toBe(true);
      const mobile = () => `+346${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      // The export's header: the user columns, e_keys, group_keys and fob (left empty here), then the fields.
      const row = (mail: string, site: string, since: string) => `Cora,Campos,"Campos, Cora",${mail},,${mobile()},,,,,,,${site},${since}`;
      const csv = [
        header,
        `${exported.slice(0, -",Madrid,".length)},lisboa,2027-03-01`,
        row(`csv2.${t}@acme.example`, "Madrid", "2027-13-01"),
        row(`csv3.${t}@acme.example`, "Paris", ""),
      ].join("\r\n");
      const preview = await api(acme, "POST", `${BASE}/user/importUsersPreview`, { csv });
      expect(preview.status).toBe(200);
      expect(preview.body.payload.counts).toEqual({ create: 0, change: 1, unchanged: 0, refuse: 2 });
      const errors = preview.body.payload.rows.filter((r: { outcome: string }) => r.outcome === "refuse").map((r: { errors: unknown[] }) => r.errors);
      expect(errors).toEqual([[{ column: `since_${t}`, message: "Enter a date as YYYY-MM-DD" }], [{ column: `site_${t}`, message: "Choose one of the field's choices" }]]);
      const changed = preview.body.payload.rows.find((r: { outcome: string }) => r.outcome === "change");
      expect(changed.changes).toEqual([`site_${t}`, `since_${t}`]);

      const commit = await api(acme, "POST", `${BASE}/user/importUsers`, { csv, chunk: 0 });
      expect(commit.status).toBe(200);
      const details = await api(acme, "GET", `${BASE}/user/getUserDetails?id=${made.body.payload.id}`);
      expect(details.body.payload.custom_fields).toEqual({ [`site_${t}`]: "Lisboa", [`since_${t}`]: "2027-03-01" });
      expect((await api(acme, "POST", `${BASE}/user/importUsersPreview`, { csv })).body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 1, refuse: 2 });

      // A new user from the file gets its values too; a column that is no field's key refuses the file.
      const fresh = `csv4.${t}@acme.example`;
      expect(
        (await api(acme, "POST", `${BASE}/user/importUsers`, { csv: [header, `Ana,Alba,,${fresh},,${mobile()},,,,,,,Madrid,2026-01-31`].join("\r\n"), chunk: 0 })).status,
      ).toBe(200);
      const created = await db().query.users.findFirst({ where: and(eq(schema.users.email, fresh)) });
      const values = await db().select().from(schema.userFieldValues).where(eq(schema.userFieldValues.userId, created!.id));
      expect(values.map((v) => v.value).sort()).toEqual(["2026-01-31", "Madrid"]);
      const unknown = await api(acme, "POST", `${BASE}/user/importUsersPreview`, { csv: `${header},shoe_size\r\n${row(email, "", "")},42` });
      expect(unknown.status).toBe(422);
      expect(unknown.body.message).toBe("The first line names a column that is neither a user column nor a custom field's key");
    } finally {
      for (const id of ids) await api(acme, "DELETE", `${BASE}/customFields/deleteField?id=${id}`);
    }
  });
});

describe("the users list filtered by a choice field", () => {
  it("lists exactly the users holding the choice (or none), in the caller's company only, on the page and through getAllUsers", async () => {
    const t = tag();
    const team = `team_${t}`;
    const fieldIds: [string, number][] = [];
    const field = async (token: string, body: Record<string, unknown>) => {
      const r = await addField(token, body);
      expect(r.status).toBe(200);
      fieldIds.push([token, r.body.payload.id]);
    };
    const user = async (token: string, name: string, domain: string, values: Record<string, string>) => {
      const r = await api(
        token,
        "POST",
        `${BASE}/user/addUser`,
        newUser({ displayName: `Zq${t} ${name}`, emailId: `${name.toLowerCase()}.${t}@${domain}`, custom_fields: values }),
      );
      expect(r.status).toBe(200);
      return r.body.payload.id as number;
    };
    const listed = async (token: string, query: string) => {
      const r = await api(token, "GET", `${BASE}/user/getAllUsers?${query}`);
      expect(r.status, query).toBe(200);
      return r.body.payload.map((row: { id: number }) => row.id).sort((a: number, b: number) => a - b);
    };
    try {
      await field(acme, { key: team, label: "Team", type: "choice", choices: ["Sales", "Support"] });
      await field(acme, { key: `badge_${t}`, label: "Badge", type: "text" });
      await field(acme, { key: `floor_${t}`, label: "Floor", type: "number" });
      // Another company with a field of the same key and a user holding the same choice.
      await field(beta, { key: team, label: "Team", type: "choice", choices: ["Sales"] });
      const alpha = await user(acme, "Alpha", "acme.example", { [team]: "Sales" });
      const bravo = await user(acme, "Bravo", "acme.example", { [team]: "Support", [`badge_${t}`]: "B1", [`floor_${t}`]: "3" });
      const charlie = await user(acme, "Charlie", "acme.example", {});
      const delta = await user(acme, "Delta", "acme.example", { [team]: "Sales" });
      const betaUser = await user(beta, "Echo", "beta.example", { [team]: "Sales" });

      // Over the whole company: only this field's holders of the choice, in any case; "-" is the users without a value.
      expect(await listed(acme, `field.${team}=Sales`)).toEqual([alpha, delta].sort((a, b) => a - b));
      expect(await listed(acme, `field.${team}=support`)).toEqual([bravo]);
      expect(await listed(acme, `q=zq${t}&field.${team}=-`)).toEqual([charlie]);
      expect(await listed(acme, `q=zq${t}&field.${team}=`)).toEqual([alpha, bravo, charlie, delta].sort((a, b) => a - b));
      // It combines with the other filters (AND); a deactivated holder is listed only with includeInactive.
      expect((await api(acme, "POST", `${BASE}/user/bulkSetInactive`, { userIds: [delta] })).status).toBe(200);
      expect(await listed(acme, `field.${team}=Sales`)).toEqual([alpha]);
      expect(await listed(acme, `field.${team}=Sales&includeInactive=true`)).toEqual([alpha, delta].sort((a, b) => a - b));
      expect(await listed(acme, `field.${team}=Sales&q=nobody${t}`)).toEqual([]);
      // A text field matches its whole value in any case, a number field its value however written.
      expect(await listed(acme, `field.badge_${t}=b1`)).toEqual([bravo]);
      expect(await listed(acme, `field.badge_${t}=B`)).toEqual([]);
      expect(await listed(acme, `field.floor_${t}=3.0`)).toEqual([bravo]);
      expect(await listed(acme, `q=zq${t}&field.floor_${t}=-`)).toEqual([alpha, charlie].sort((a, b) => a - b));
      // The other company's filter by its own field of the same key lists only its own user.
      expect(await listed(beta, `field.${team}=Sales`)).toEqual([betaUser]);

      // The API refuses a filter it cannot apply (400, never the unfiltered list); another company's key is unknown.
      for (const [token, query, message] of [
        [acme, `field.${team}=Marketing`, `field.${team}: Choose one of the field's choices`],
        [acme, `field.nope_${t}=Sales`, `field.nope_${t}: Unknown custom field`],
        [acme, `field.floor_${t}=third`, `field.floor_${t}: Enter a number`],
        [beta, `field.badge_${t}=B1`, `field.badge_${t}: Unknown custom field`],
      ] as const) {
        const r = await api(token, "GET", `${BASE}/user/getAllUsers?${query}`);
        expect(r.status, query).toBe(400);
        expect(r.body.message).toBe(message);
      }

      // The page: the same filter from its address; one it cannot apply is ignored (the list unfiltered).
      const cookie = await pageCookie("acme");
      const page = async (query: string) => {
        const res = await consoleWorker.fetch(`${ORIGIN}/users?${query}`, { headers: { Cookie: cookie }, redirect: "manual" });
        expect(res.status, query).toBe(200);
        const html = await res.text();
        return ["Alpha", "Bravo", "Charlie"].filter((n) => html.includes(`Zq${t} ${n}`));
      };
      expect(await page(`q=zq${t}&field.${team}=Sales`)).toEqual(["Alpha"]);
      expect(await page(`q=zq${t}&field.${team}=Support&sort=-email`)).toEqual(["Bravo"]);
      expect(await page(`q=zq${t}&field.${team}=-`)).toEqual(["Charlie"]);
      expect(await page(`q=zq${t}&field.${team}=Marketing`)).toEqual(["Alpha", "Bravo", "Charlie"]);
      expect(await page(`q=zq${t}&field.nope_${t}=Sales`)).toEqual(["Alpha", "Bravo", "Charlie"]);
    } finally {
      for (const [token, id] of fieldIds) await api(token, "DELETE", `${BASE}/customFields/deleteField?id=${id}`);
    }
  });
});
