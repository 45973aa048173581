import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, schema } from "./helpers";

/**
 * A company's custom user fields through SCIM (decisions 0080 and 0095): the extension
 * `urn:ietf:params:scim:schemas:extension:kac:2.0:User` described per company, set on create, read back,
 * patched in Okta's and Entra's shapes, checked by the console's own rule (nothing written when refused),
 * filtered on, and the same values the admin API reads.
 */
const EXT = "urn:ietf:params:scim:schemas:extension:kac:2.0:User";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

type Scim = { status: number; body: any; headers: Headers };

async function scim(token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Scim> {
  const res = await consoleWorker.fetch(`${ORIGIN}/scim/v2${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { "Content-Type": "application/scim+json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

function expectError(r: Scim, status: number, scimType: string, detail?: string) {
  expect(r.status).toBe(status);
  expect(r.body.schemas).toEqual([ERROR]);
  expect(r.body.scimType).toBe(scimType);
  if (detail) expect(r.body.detail).toBe(detail);
}

const patch = (token: string, id: string, Operations: unknown[], headers?: Record<string, string>) =>
  scim(token, "PATCH", `/Users/${id}`, { schemas: [PATCH], Operations }, headers);

const person = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  name: { givenName: "Mary", familyName: "Somerville" },
  emails: [{ primary: true, value: userName, type: "work" }],
  displayName: "Mary Somerville",
  active: true,
  ...extra,
});

let admin: string;
let acmeToken: string;
let betaToken: string;
const fieldIds: Record<string, number> = {};

/** The values the console stores for a user, by field key (the same table the admin API and the form read). */
async function stored(userId: string): Promise<Record<string, string>> {
  const rows = await db()
    .select({ key: schema.customFields.key, value: schema.userFieldValues.value })
    .from(schema.userFieldValues)
    .innerJoin(schema.customFields, eq(schema.customFields.id, schema.userFieldValues.fieldId))
    .where(eq(schema.userFieldValues.userId, Number(userId)));
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

beforeAll(async () => {
  admin = await login("acme");
  for (const body of [
    { key: "team", label: "Team", type: "choice", choices: ["Sales", "Support"] },
    { key: "badge", label: "Badge", type: "text" },
    { key: "floor", label: "Floor", type: "number" },
    { key: "start_date", label: "Start date", type: "date" },
    { key: "cost_centre", label: "Cost centre", type: "text", required: true },
  ]) {
    const r = await api(admin, "POST", "/api/admin/customFields/addField", body);
    expect(r.status).toBe(200);
    fieldIds[body.key] = r.body.payload.id;
  }
  const a = await api(admin, "POST", "/api/admin/user/createDirectoryToken", { name: "Okta" });
  acmeToken = a.body.payload.token;
  const b = await api(await login("beta"), "POST", "/api/admin/user/createDirectoryToken", { name: "Entra" });
  betaToken = b.body.payload.token;
});

describe("the custom fields extension in SCIM discovery", () => {
  it("describes the token's company's fields: key, SCIM type, choices, required; a company without fields gets no attributes", async () => {
    const all = await scim(acmeToken, "GET", "/Schemas");
    expect(all.status).toBe(200);
    expect(all.body.Resources.map((s: { id: string }) => s.id)).toContain(EXT);
    const ext = await scim(acmeToken, "GET", `/Schemas/${EXT}`);
    expect(ext.status).toBe(200);
    expect(ext.body.attributes).toEqual([
      expect.objectContaining({ name: "team", type: "string", canonicalValues: ["Sales", "Support"], required: false, multiValued: false, mutability: "readWrite" }),
      expect.objectContaining({ name: "badge", type: "string", required: false }),
      expect.objectContaining({ name: "floor", type: "decimal", required: false }),
      expect.objectContaining({ name: "start_date", type: "string", description: "Start date (a date, YYYY-MM-DD)" }),
      expect.objectContaining({ name: "cost_centre", type: "string", required: true }),
    ]);
    expect(ext.body.attributes[1].canonicalValues).toBeUndefined();
    const userType = await scim(acmeToken, "GET", "/ResourceTypes/User");
    expect(userType.body.schemaExtensions).toEqual([{ schema: EXT, required: true }]);

    // Another company's token sees its own field (the demo's), not acme's; with none left, the extension has no attributes.
    const beta = await scim(betaToken, "GET", `/Schemas/${EXT}`);
    expect(beta.status).toBe(200);
    expect(beta.body.attributes.map((a: { name: string }) => a.name)).toEqual(["employee_number"]);
    expect((await scim(betaToken, "GET", "/ResourceTypes/User")).body.schemaExtensions).toEqual([{ schema: EXT, required: false }]);
    const betaAdmin = await login("beta");
    const betaFields = await api(betaAdmin, "GET", "/api/admin/customFields/getFields");
    for (const f of betaFields.body.payload) expect((await api(betaAdmin, "DELETE", `/api/admin/customFields/deleteField?id=${f.id}`)).status).toBe(200);
    const empty = await scim(betaToken, "GET", `/Schemas/${EXT}`);
    expect(empty.status).toBe(200);
    expect(empty.body.attributes).toEqual([]);
  });
});

describe("custom field values of SCIM users", () => {
  let mary: string;

  it("are set on create, normalised as the console does, and read back by GET and the admin API", async () => {
    const r = await scim(
      acmeToken,
      "POST",
      "/Users",
      person("mary@acme.example", { [EXT]: { team: "support", Floor: "3,50", start_date: "2027-02-28", cost_centre: " CC-7 ", retired: "x" } }),
    );
    expect(r.status).toBe(201);
    mary = r.body.id;
    expect(r.body.schemas).toEqual([USER, EXT]);
    expect(r.body[EXT]).toEqual({ team: "Support", floor: 3.5, start_date: "2027-02-28", cost_centre: "CC-7" });
    const got = await scim(acmeToken, "GET", `/Users/${mary}`);
    expect(got.body[EXT]).toEqual({ team: "Support", floor: 3.5, start_date: "2027-02-28", cost_centre: "CC-7" });
    expect(await stored(mary)).toEqual({ team: "Support", floor: "3.5", start_date: "2027-02-28", cost_centre: "CC-7" });
    // The admin API (the console's read path) shows the same values.
    const details = await api(admin, "GET", `/api/admin/user/getUserDetails?id=${mary}`);
    expect(details.body.payload.custom_fields).toEqual({ team: "Support", floor: "3.5", start_date: "2027-02-28", cost_centre: "CC-7" });
    // …and a value set in the console shows through SCIM.
    const viaApi = await api(admin, "PUT", "/api/admin/user/modifyUserDetails", {
      userId: Number(mary),
      firstName: "Mary",
      lastName: "Somerville",
      displayName: "Mary Somerville",
      emailId: "mary@acme.example",
      countryCode: "34",
      phoneNumer: "612000777",
      isSOInterrupt: "1",
      custom_fields: { badge: "B-1" },
    });
    expect(viaApi.status).toBe(200);
    expect((await scim(acmeToken, "GET", `/Users/${mary}`)).body[EXT].badge).toBe("B-1");
  });

  it("a new user lacking a required field is refused, as in the console; nothing is created", async () => {
    const r = await scim(acmeToken, "POST", "/Users", person("nocc@acme.example", { [EXT]: { team: "Sales" } }));
    expectError(r, 400, "invalidValue", `${EXT}:cost_centre: This field is required`);
    expectError(await scim(acmeToken, "POST", "/Users", person("nocc@acme.example")), 400, "invalidValue");
    const none = await db().select().from(schema.users).where(eq(schema.users.email, "nocc@acme.example"));
    expect(none).toEqual([]);
  });

  it("are patched in Okta's shapes: a path naming the attribute, and a no-path value object under the URN", async () => {
    const audits = async () => (await auditsNamed("Directory User Modified", eq(schema.activityLogs.targetUserId, Number(mary)))).length;
    const before = await audits();
    const one = await patch(acmeToken, mary, [{ op: "replace", path: `${EXT}:team`, value: "Sales" }]);
    expect(one.status).toBe(200);
    expect(one.body[EXT].team).toBe("Sales");
    const two = await patch(acmeToken, mary, [{ op: "add", value: { [EXT]: { badge: "B-2", floor: 4 } } }]);
    expect(two.status).toBe(200);
    expect(two.body[EXT]).toEqual({ team: "Sales", badge: "B-2", floor: 4, start_date: "2027-02-28", cost_centre: "CC-7" });
    expect(await stored(mary)).toMatchObject({ team: "Sales", badge: "B-2", floor: "4" });
    // A change of custom fields alone is a change of the user: audited as the directory's, a new version.
    expect(await audits()).toBe(before + 2);
    expect(two.headers.get("ETag")).not.toBe(one.headers.get("ETag"));
  });

  it("are patched in Entra's shapes: capitalised ops, fully qualified keys in a value object, Remove with a path", async () => {
    const r = await patch(acmeToken, mary, [
      { op: "Replace", value: { [`${EXT}:team`]: "support", displayName: "Mary F. Somerville" } },
      { op: "Add", path: `${EXT}:start_date`, value: "2027-03-01" },
      { op: "Remove", path: `${EXT}:badge` },
      { op: "Replace", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "Physics" },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.displayName).toBe("Mary F. Somerville");
    expect(r.body[EXT]).toEqual({ team: "Support", floor: 4, start_date: "2027-03-01", cost_centre: "CC-7" });
    expect(await stored(mary)).toEqual({ team: "Support", floor: "4", start_date: "2027-03-01", cost_centre: "CC-7" });
  });

  it("a bad value is 400 invalidValue naming the attribute, and the user is left exactly as it was", async () => {
    const before = await scim(acmeToken, "GET", `/Users/${mary}`);
    const row = async () =>
      db()
        .select()
        .from(schema.users)
        .where(eq(schema.users.id, Number(mary)))
        .get();
    const rowBefore = await row();
    const valuesBefore = await stored(mary);
    const bad: [unknown[], string][] = [
      [
        [
          { op: "replace", path: "displayName", value: "Changed" },
          { op: "replace", path: `${EXT}:team`, value: "Marketing" },
        ],
        `${EXT}:team: Choose one of the field's choices`,
      ],
      [[{ op: "Replace", value: { [EXT]: { floor: "three", badge: "ok" } } }], `${EXT}:floor: Enter a number`],
      [[{ op: "add", path: `${EXT}:start_date`, value: "2027-02-30" }], `${EXT}:start_date: Enter a date as YYYY-MM-DD`],
      [[{ op: "remove", path: `${EXT}:cost_centre` }], `${EXT}:cost_centre: This field is required`],
      [[{ op: "replace", path: `${EXT}:badge`, value: { nested: true } }], `${EXT}:badge is a string or a number`],
    ];
    for (const [ops, detail] of bad) expectError(await patch(acmeToken, mary, ops), 400, "invalidValue", detail);
    expectError(await scim(acmeToken, "PUT", `/Users/${mary}`, person("mary@acme.example", { [EXT]: { cost_centre: "CC-7", team: "Nope" } })), 400, "invalidValue");
    expect(await row()).toEqual(rowBefore);
    expect(await stored(mary)).toEqual(valuesBefore);
    expect((await scim(acmeToken, "GET", `/Users/${mary}`)).body).toEqual(before.body);
  });

  it("PUT with the extension sets it (fields left out are cleared); PUT without it keeps the values", async () => {
    const kept = await scim(acmeToken, "PUT", `/Users/${mary}`, person("mary@acme.example", { displayName: "Mary Somerville" }));
    expect(kept.status).toBe(200);
    expect(kept.body[EXT]).toEqual({ team: "Support", floor: 4, start_date: "2027-03-01", cost_centre: "CC-7" });
    const set = await scim(acmeToken, "PUT", `/Users/${mary}`, person("mary@acme.example", { [EXT]: { cost_centre: "CC-8", team: "Sales" } }));
    expect(set.status).toBe(200);
    expect(set.body[EXT]).toEqual({ cost_centre: "CC-8", team: "Sales" });
    expect(await stored(mary)).toEqual({ cost_centre: "CC-8", team: "Sales" });
  });

  it("filters with eq on an extension attribute; an unknown one is invalidFilter, never a 5xx", async () => {
    const other = await scim(acmeToken, "POST", "/Users", person("ada.b@acme.example", { [EXT]: { cost_centre: "CC-9", team: "Support", floor: 2 } }));
    expect(other.status).toBe(201);
    const list = async (f: string) => {
      const r = await scim(acmeToken, "GET", `/Users?filter=${encodeURIComponent(f)}`);
      expect(r.status).toBe(200);
      return r.body.Resources.map((u: { id: string }) => u.id);
    };
    expect(await list(`${EXT}:team eq "sales"`)).toEqual([mary]);
    expect(await list(`${EXT}:floor eq 2`)).toEqual([other.body.id]);
    expect(await list(`${EXT}:floor eq "2.0"`)).toEqual([other.body.id]);
    expect(await list(`${EXT}:cost_centre eq "CC-9" and userName eq "ada.b@acme.example"`)).toEqual([other.body.id]);
    expect(await list(`${EXT}:floor pr`)).toEqual([other.body.id]);
    // The list carries each user's values.
    const page = await scim(acmeToken, "GET", `/Users?filter=${encodeURIComponent('userName eq "ada.b@acme.example"')}`);
    expect(page.body.Resources[0][EXT]).toEqual({ team: "Support", floor: 2, cost_centre: "CC-9" });
    expectError(await scim(acmeToken, "GET", `/Users?filter=${encodeURIComponent(`${EXT}:nope eq "x"`)}`), 400, "invalidFilter");
    expectError(await scim(acmeToken, "GET", `/Users?filter=${encodeURIComponent(`${EXT}:team gt "a"`)}`), 400, "invalidFilter");
    // Another company's directory has no such attribute.
    expectError(await scim(betaToken, "GET", `/Users?filter=${encodeURIComponent(`${EXT}:team eq "Sales"`)}`), 400, "invalidFilter");
  });

  it("a request that names no custom field is never refused for them: a deactivation goes through after a new required field", async () => {
    const r = await api(admin, "POST", "/api/admin/customFields/addField", { key: "site", label: "Site", type: "text", required: true });
    expect(r.status).toBe(200);
    const off = await patch(acmeToken, mary, [{ op: "replace", value: { active: false } }]);
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    // Touching the fields checks the values the user ends with, the new required one among them (the console's rule).
    expectError(await patch(acmeToken, mary, [{ op: "replace", path: `${EXT}:team`, value: "Support" }]), 400, "invalidValue", `${EXT}:site: This field is required`);
    expect(
      await db()
        .select()
        .from(schema.userFieldValues)
        .where(and(eq(schema.userFieldValues.userId, Number(mary)), eq(schema.userFieldValues.fieldId, fieldIds.team))),
    ).toEqual([expect.objectContaining({ value: "Sales" })]);
  });
});
