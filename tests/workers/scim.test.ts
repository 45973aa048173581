import { env } from "cloudflare:test";
import { and, eq, isNotNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { limitCaller, RATE_LIMIT_MESSAGE, RATE_LIMITS, type RateLimitEnv } from "../../app/utils/rate-limit.server";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, schema, workerNow } from "./helpers";

/**
 * A SCIM 2.0 conformance run (RFC 7643/7644, decision 0080) against the console on D1: tokens, discovery,
 * users and groups created, listed with filters and pages, patched in Okta's and Entra's shapes,
 * deactivated and deleted, every status and body checked, and what each change puts in the gateways' feed.
 */
const SECRET = String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET);
const ACME_ROLE_AUDITOR = 4;
const ACME_OFFICE_GROUP = 1;
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";

type Scim = { status: number; body: any; headers: Headers };

async function scim(token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Scim> {
  const h: Record<string, string> = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h["Content-Type"] ??= "application/scim+json";
  const res = await consoleWorker.fetch(`${ORIGIN}/scim/v2${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** A SCIM error answer: the status in the header and the body, the Error schema, the scimType when one is due. */
function expectError(r: Scim, status: number, scimType?: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get("Content-Type")).toMatch(/^application\/scim\+json/);
  expect(r.body.schemas).toEqual([ERROR]);
  expect(r.body.status).toBe(String(status));
  expect(typeof r.body.detail).toBe("string");
  if (scimType) expect(r.body.scimType).toBe(scimType);
}

const feed = async (cursor?: number) => {
  const r = await api(`Bearer ${SECRET}`, "GET", `/api/gateway/changes${cursor ? `?cursor=${cursor}` : ""}`);
  expect(r.status).toBe(200);
  return r.body as unknown as { cursor: number; changes: { type: string; op: string; id: string; data?: { active?: boolean; userId?: string; groupId?: string } }[] };
};

const okta = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  name: { givenName: "Ada", familyName: "Lovelace" },
  emails: [{ primary: true, value: userName, type: "work" }],
  displayName: "Ada Lovelace",
  active: true,
  ...extra,
});

let admin: string;
let acmeToken: string;
let betaToken: string;

beforeAll(async () => {
  admin = await login("acme");
  const a = await api(admin, "POST", "/api/admin/user/createDirectoryToken", { name: "Okta" });
  expect(a.status).toBe(200);
  acmeToken = a.body.payload.token;
  const b = await api(await login("beta"), "POST", "/api/admin/user/createDirectoryToken", { name: "Entra" });
  expect(b.status).toBe(200);
  betaToken = b.body.payload.token;
});

describe("directory tokens", () => {
  it("are shown once, listed without their secret, and kept as a keyed hash", async () => {
    expect(acmeToken).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    const list = await api(admin, "GET", "/api/admin/user/getDirectoryTokens");
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(acmeToken.split(".")[1]);
    expect(list.body.payload).toEqual([expect.objectContaining({ name: "Okta", revoked_at: null })]);
    const row = await db()
      .select()
      .from(schema.scimTokens)
      .where(eq(schema.scimTokens.id, Number(acmeToken.split(".")[0])))
      .get();
    expect(row!.secretHash).toMatch(/^hmac-sha256\$/);
    expect(row!.secretHash).not.toContain(acmeToken.split(".")[1]);
    expect((await auditsNamed("Directory Token Created", eq(schema.activityLogs.summary, "Okta"))).length).toBe(1);
  });

  it("are a super admin's: the read-only auditor is refused, another company's token is not found", async () => {
    expect((await api(await login("auditor"), "POST", "/api/admin/user/createDirectoryToken", { name: "x" })).status).toBe(403);
    const betaId = betaToken.split(".")[0];
    expect((await api(admin, "DELETE", `/api/admin/user/revokeDirectoryToken?id=${betaId}`)).status).toBe(404);
    expect((await api(admin, "POST", "/api/admin/user/createDirectoryToken", { name: "" })).status).toBe(400);
  });

  it("rotate to a new secret at once and revoke for good; last use is recorded coarsely", async () => {
    const made = await api(admin, "POST", "/api/admin/user/createDirectoryToken", { name: "Spare" });
    const first = made.body.payload.token as string;
    expect((await scim(first, "GET", "/ServiceProviderConfig")).status).toBe(200);
    const used = await db().select().from(schema.scimTokens).where(eq(schema.scimTokens.id, made.body.payload.id)).get();
    expect(used!.lastUsedAt).not.toBeNull();
    // A second call within the step leaves last_used_at as it was: no D1 write per request.
    await scim(first, "GET", "/ServiceProviderConfig");
    expect((await db().select().from(schema.scimTokens).where(eq(schema.scimTokens.id, made.body.payload.id)).get())!.lastUsedAt).toBe(used!.lastUsedAt);

    const rotated = await api(admin, "POST", "/api/admin/user/rotateDirectoryToken", { id: made.body.payload.id });
    expect(rotated.status).toBe(200);
    const second = rotated.body.payload.token as string;
    expectError(await scim(first, "GET", "/Users"), 401);
    expect((await scim(second, "GET", "/Users")).status).toBe(200);

    expect((await api(admin, "DELETE", `/api/admin/user/revokeDirectoryToken?id=${made.body.payload.id}`)).status).toBe(200);
    expectError(await scim(second, "GET", "/Users"), 401);
    expect((await api(admin, "DELETE", `/api/admin/user/revokeDirectoryToken?id=${made.body.payload.id}`)).status).toBe(409);
  });
});

describe("SCIM authentication and discovery", () => {
  it("refuses a missing, malformed or wrong token with 401 in SCIM's form", async () => {
    const none = await scim(null, "GET", "/Users");
    expectError(none, 401);
    expect(none.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expectError(await scim("nonsense", "GET", "/Users"), 401);
    const [id] = acmeToken.split(".");
    expectError(await scim(`${id}.${"A".repeat(43)}`, "GET", "/Users"), 401);
  });

  it("serves ServiceProviderConfig, ResourceTypes and Schemas as application/scim+json", async () => {
    const spc = await scim(acmeToken, "GET", "/ServiceProviderConfig");
    expect(spc.status).toBe(200);
    expect(spc.headers.get("Content-Type")).toMatch(/^application\/scim\+json/);
    expect(spc.body).toMatchObject({ patch: { supported: true }, filter: { supported: true, maxResults: 200 }, etag: { supported: true }, bulk: { supported: false } });
    const types = await scim(acmeToken, "GET", "/ResourceTypes");
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(["User", "Group"]);
    expect((await scim(acmeToken, "GET", "/ResourceTypes/User")).body.schema).toBe(USER);
    const schemas = await scim(acmeToken, "GET", "/Schemas");
    expect(schemas.body.totalResults).toBe(3);
    expect((await scim(acmeToken, "GET", `/Schemas/${USER}`)).body.attributes.map((a: { name: string }) => a.name)).toContain("userName");
    expectError(await scim(acmeToken, "GET", "/Schemas/urn:nope"), 404);
    expectError(await scim(acmeToken, "GET", "/Nothing"), 404);
    expectError(await scim(acmeToken, "DELETE", "/ServiceProviderConfig"), 405);
  });
});

describe("SCIM Users", () => {
  let ada: string;

  it("creates a user (Okta's body): 201, Location, ETag, the console's user, audited as the directory", async () => {
    const r = await scim(acmeToken, "POST", "/Users", okta("ada@acme.example", { externalId: "00u1ada", phoneNumbers: [{ value: "+34 612 345 678", type: "mobile" }] }));
    expect(r.status).toBe(201);
    ada = r.body.id;
    expect(r.headers.get("Location")).toBe(`${ORIGIN}/scim/v2/Users/${ada}`);
    expect(r.headers.get("ETag")).toBe(r.body.meta.version);
    expect(r.body).toMatchObject({
      schemas: [USER],
      userName: "ada@acme.example",
      externalId: "00u1ada",
      name: { givenName: "Ada", familyName: "Lovelace" },
      displayName: "Ada Lovelace",
      emails: [{ value: "ada@acme.example", type: "work", primary: true }],
      phoneNumbers: [{ value: "+34612345678", type: "mobile", primary: true }],
      active: true,
      meta: { resourceType: "User", location: `${ORIGIN}/scim/v2/Users/${ada}` },
    });
    const row = await db()
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, Number(ada)))
      .get();
    expect(row).toMatchObject({
      companyId: 3,
      email: "ada@acme.example",
      firstName: "Ada",
      phoneNumber: "+34612345678",
      isInactive: false,
      isSuperAdmin: false,
      roleId: null,
      accountSetupPending: true,
    });
    const [log] = await auditsNamed("Directory User Created", eq(schema.activityLogs.targetUserId, Number(ada)));
    expect(log.by).toBeNull();
    expect(JSON.parse(log.details)).toEqual({ directory: "Okta" });
  });

  it("refuses a taken userName (409 uniqueness) and bad input with 400, never 5xx", async () => {
    expectError(await scim(acmeToken, "POST", "/Users", okta("ADA@acme.example")), 409, "uniqueness");
    expectError(await scim(acmeToken, "POST", "/Users", { schemas: [USER], name: { givenName: "No" } }), 400, "invalidValue");
    expectError(await scim(acmeToken, "POST", "/Users", okta("not-an-email")), 400, "invalidValue");
    expectError(await scim(acmeToken, "POST", "/Users", okta("x@acme.example", { active: "maybe" })), 400, "invalidValue");
    expectError(await scim(acmeToken, "POST", "/Users", okta("x@acme.example", { phoneNumbers: [{ value: "call me" }] })), 400, "invalidValue");
    expectError(await scim(acmeToken, "POST", "/Users", okta("x@acme.example", { displayName: "evil\u202Ename" })), 400, "invalidValue");
    expectError(await scim(acmeToken, "POST", "/Users", "{not json"), 400, "invalidSyntax");
    expectError(await scim(acmeToken, "POST", "/Users", "[]"), 400, "invalidSyntax");
    expectError(await scim(acmeToken, "POST", "/Users", okta("x@acme.example"), { "Content-Type": "text/plain" }), 415);
    const huge = await scim(acmeToken, "POST", "/Users", okta("x@acme.example", { displayName: "x".repeat(300_000) }));
    expectError(huge, 413);
    expectError(await scim(acmeToken, "GET", "/Users/abc"), 404);
    expectError(await scim(acmeToken, "GET", "/Users?count=lots"), 400, "invalidValue");
  });

  it("lists with filters (eq, co, sw, and, on userName, emails, externalId, displayName, active) and pages", async () => {
    for (const [i, name] of ["Grace Hopper", "Grace Kelly", "Alan Turing"].entries()) {
      const [given, family] = name.split(" ");
      const email = `${given.toLowerCase()}.${family.toLowerCase()}@acme.example`;
      const r = await scim(
        acmeToken,
        "POST",
        "/Users",
        okta(email, { name: { givenName: given, familyName: family }, displayName: name, externalId: `ext-${i}`, emails: [{ value: email, type: "work" }] }),
      );
      expect(r.status).toBe(201);
    }
    const list = async (query: string) => {
      const r = await scim(acmeToken, "GET", `/Users?${query}`);
      expect(r.status).toBe(200);
      expect(r.body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:ListResponse"]);
      return r.body as { totalResults: number; startIndex: number; itemsPerPage: number; Resources: { userName: string; displayName: string }[] };
    };
    const q = (f: string) => `filter=${encodeURIComponent(f)}`;
    expect((await list(q('userName eq "GRACE.HOPPER@acme.example"'))).Resources.map((u) => u.displayName)).toEqual(["Grace Hopper"]);
    expect((await list(q('emails co "kelly"'))).Resources.map((u) => u.displayName)).toEqual(["Grace Kelly"]);
    expect((await list(q('emails.value co "kelly"'))).totalResults).toBe(1);
    expect((await list(q('displayName sw "grace"'))).totalResults).toBe(2);
    expect((await list(q('displayName sw "Grace" and externalId eq "ext-1"'))).Resources.map((u) => u.displayName)).toEqual(["Grace Kelly"]);
    // externalId is case-exact (RFC 7643 §2.2)
    expect((await list(q('externalId eq "EXT-1"'))).totalResults).toBe(0);
    expect((await list(q('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "alan.turing@acme.example"'))).totalResults).toBe(1);
    expect((await list(q('active eq false and displayName sw "Grace"'))).totalResults).toBe(0);
    expect((await list(q('active eq true and displayName sw "Grace"'))).totalResults).toBe(2);
    // The company's super admin is out of the directory's reach; another company's users are never seen.
    expect((await list(q('userName eq "admin@acme.example"'))).totalResults).toBe(0);
    expect((await list(q('userName eq "admin@beta.example"'))).totalResults).toBe(0);

    const all = await list("count=200");
    expect(all.totalResults).toBe(all.Resources.length);
    const page = await list("startIndex=2&count=2");
    expect(page).toMatchObject({ totalResults: all.totalResults, startIndex: 2, itemsPerPage: 2 });
    expect(page.Resources.map((u) => u.userName)).toEqual(all.Resources.slice(1, 3).map((u) => u.userName));
    expect((await list("startIndex=0&count=0")).itemsPerPage).toBe(0);

    expectError(await scim(acmeToken, "GET", `/Users?${q('userName eq "unterminated')}`), 400, "invalidFilter");
    expectError(await scim(acmeToken, "GET", `/Users?${q('userName zz "x"')}`), 400, "invalidFilter");
    expectError(await scim(acmeToken, "GET", `/Users?${q('password eq "x"')}`), 400, "invalidFilter");
    expectError(await scim(acmeToken, "GET", `/Users?${q("active eq 1")}`), 400, "invalidFilter");
  });

  it("patches in Microsoft Entra's shape: capitalised ops, filtered paths, no-path value objects, string booleans", async () => {
    const r = await scim(acmeToken, "PATCH", `/Users/${ada}`, {
      schemas: [PATCH],
      Operations: [
        { op: "Replace", path: 'emails[type eq "work"].value', value: "ada.l@acme.example" },
        { op: "Add", path: "name.givenName", value: "Augusta Ada" },
        { op: "Replace", path: "displayName", value: "Ada King" },
        { op: "Add", path: 'phoneNumbers[type eq "mobile"].value', value: "+34 622 000 111" },
        { op: "Replace", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "Maths" },
        { op: "Add", value: { "name.familyName": "King", title: "Countess" } },
        { op: "Replace", path: "userName", value: "ada@entra.acme.example" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      userName: "ada@entra.acme.example",
      name: { givenName: "Augusta Ada", familyName: "King" },
      displayName: "Ada King",
      emails: [{ value: "ada.l@acme.example" }],
      phoneNumbers: [{ value: "+34622000111" }],
      active: true,
    });
    // Entra finds people by userName; the console's sign-in e-mail stays the work e-mail.
    expect((await scim(acmeToken, "GET", `/Users?filter=${encodeURIComponent('userName eq "ada@entra.acme.example"')}`)).body.totalResults).toBe(1);

    const removed = await scim(acmeToken, "PATCH", `/Users/${ada}`, {
      schemas: [PATCH],
      Operations: [
        { op: "Remove", path: 'phoneNumbers[type eq "mobile"].value' },
        { op: "Replace", path: "active", value: "False" },
      ],
    });
    expect(removed.status).toBe(200);
    expect(removed.body.phoneNumbers).toBeUndefined();
    expect(removed.body.active).toBe(false);
    const back = await scim(acmeToken, "PATCH", `/Users/${ada}`, { schemas: [PATCH], Operations: [{ op: "Replace", value: { active: "True" } }] });
    expect(back.body.active).toBe(true);
  });

  it("refuses malformed PATCH bodies with SCIM's 400s", async () => {
    const patch = (body: unknown) => scim(acmeToken, "PATCH", `/Users/${ada}`, body);
    expectError(await patch({ Operations: [{ op: "replace", path: "active", value: false }] }), 400, "invalidSyntax");
    expectError(await patch({ schemas: [PATCH], Operations: [] }), 400, "invalidSyntax");
    expectError(await patch({ schemas: [PATCH], Operations: [{ op: "frobnicate", path: "active", value: false }] }), 400, "invalidSyntax");
    expectError(await patch({ schemas: [PATCH], Operations: [{ op: "replace", path: "emails[type eq", value: "x" }] }), 400, "invalidPath");
    expectError(await patch({ schemas: [PATCH], Operations: [{ op: "remove" }] }), 400, "noTarget");
    expectError(await patch({ schemas: [PATCH], Operations: [{ op: "remove", path: "userName" }] }), 400, "mutability");
    expectError(await patch({ schemas: [PATCH], Operations: [{ op: "replace", path: "active", value: "no" }] }), 400, "invalidValue");
    expectError(await patch({ schemas: [PATCH], Operations: [{ op: "replace", value: "active" }] }), 400, "invalidValue");
  });

  it("versions resources: If-Match with an old version is 412, the current one passes, If-None-Match gives 304", async () => {
    const got = await scim(acmeToken, "GET", `/Users/${ada}`);
    const etag = got.headers.get("ETag")!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(etag).toBe(got.body.meta.version);
    expect((await scim(acmeToken, "GET", `/Users/${ada}`, undefined, { "If-None-Match": etag })).status).toBe(304);
    const changed = await scim(
      acmeToken,
      "PATCH",
      `/Users/${ada}`,
      { schemas: [PATCH], Operations: [{ op: "replace", path: "displayName", value: "Ada K." }] },
      { "If-Match": etag },
    );
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    const stale = await scim(acmeToken, "PATCH", `/Users/${ada}`, { schemas: [PATCH], Operations: [{ op: "replace", path: "displayName", value: "Lost" }] }, { "If-Match": etag });
    expectError(stale, 412);
    expectError(await scim(acmeToken, "DELETE", `/Users/${ada}`, undefined, { "If-Match": etag }), 412);
    expect((await scim(acmeToken, "GET", `/Users/${ada}`)).body.displayName).toBe("Ada K.");
  });

  it("replaces a user with PUT", async () => {
    const r = await scim(
      acmeToken,
      "PUT",
      `/Users/${ada}`,
      okta("ada@entra.acme.example", { emails: [{ value: "ada.l@acme.example", type: "work", primary: true }], displayName: "Ada Lovelace", externalId: "00u1ada" }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ displayName: "Ada Lovelace", name: { givenName: "Ada", familyName: "Lovelace" }, externalId: "00u1ada" });
  });

  it("keeps tenants apart: another company's token neither sees nor changes the user", async () => {
    expectError(await scim(betaToken, "GET", `/Users/${ada}`), 404);
    expectError(await scim(betaToken, "PATCH", `/Users/${ada}`, { schemas: [PATCH], Operations: [{ op: "replace", value: { active: false } }] }), 404);
    expectError(await scim(betaToken, "DELETE", `/Users/${ada}`), 404);
    expect((await scim(betaToken, "GET", `/Users?filter=${encodeURIComponent('userName eq "ada@entra.acme.example"')}`)).body.totalResults).toBe(0);
    expect((await scim(acmeToken, "GET", `/Users/${ada}`)).body.active).toBe(true);
  });

  it("deactivates in Okta's shape: the feed carries the user as inactive, so gateways and boards refuse their credentials", async () => {
    const { cursor } = await feed();
    const deactivations = async () => (await auditsNamed("Directory User Deactivated", eq(schema.activityLogs.targetUserId, Number(ada)))).length;
    const before = await deactivations();
    const r = await scim(acmeToken, "PATCH", `/Users/${ada}`, { schemas: [PATCH], Operations: [{ op: "replace", value: { active: false } }] });
    expect(r.status).toBe(200);
    expect(r.body.active).toBe(false);
    const change = (await feed(cursor)).changes.find((c) => c.type === "user" && c.id === ada);
    expect(change).toMatchObject({ op: "upsert", data: { active: false } });
    expect(await deactivations()).toBe(before + 1);
  });

  it("deletes: 204, then 404; the feed carries the user's tombstone", async () => {
    const { cursor } = await feed();
    const r = await scim(acmeToken, "DELETE", `/Users/${ada}`);
    expect(r.status).toBe(204);
    expect(r.body).toBeNull();
    expectError(await scim(acmeToken, "GET", `/Users/${ada}`), 404);
    expectError(await scim(acmeToken, "DELETE", `/Users/${ada}`), 404);
    expect((await feed(cursor)).changes.some((c) => c.type === "user" && c.id === ada && c.op === "delete")).toBe(true);
    const [log] = await auditsNamed("Directory User Removed", eq(schema.activityLogs.targetUserId, Number(ada)));
    expect(log.by).toBeNull();
  });
});

describe("SCIM Groups and what they grant", () => {
  let grace: string;
  let alan: string;
  let group: string;

  const userId = async (userName: string) => (await scim(acmeToken, "GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`)).body.Resources[0].id as string;
  const keysOf = (id: string) =>
    db()
      .select()
      .from(schema.ekeyAssignments)
      .where(and(eq(schema.ekeyAssignments.userId, Number(id)), isNotNull(schema.ekeyAssignments.scimGroupId)));
  const roleOf = async (id: string) =>
    (await db()
      .select({ roleId: schema.users.roleId })
      .from(schema.users)
      .where(eq(schema.users.id, Number(id)))
      .get())!.roleId;

  beforeAll(async () => {
    grace = await userId("grace.hopper@acme.example");
    alan = await userId("alan.turing@acme.example");
  });

  it("creates a group with a member; it grants nothing until an admin links it", async () => {
    const r = await scim(acmeToken, "POST", "/Groups", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
      displayName: "Engineering",
      externalId: "grp-eng",
      members: [{ value: grace }],
    });
    expect(r.status).toBe(201);
    group = r.body.id;
    expect(r.headers.get("Location")).toBe(`${ORIGIN}/scim/v2/Groups/${group}`);
    expect(r.body).toMatchObject({
      displayName: "Engineering",
      externalId: "grp-eng",
      members: [{ value: grace, display: "Grace Hopper" }],
      meta: { resourceType: "Group", version: 'W/"1"' },
    });
    expect(await keysOf(grace)).toEqual([]);
    expectError(await scim(acmeToken, "POST", "/Groups", { displayName: "engineering" }), 409, "uniqueness");
    expectError(await scim(acmeToken, "POST", "/Groups", { displayName: "" }), 400, "invalidValue");
    expectError(await scim(acmeToken, "POST", "/Groups", { displayName: "Ghosts", members: [{ value: "999999" }] }), 400, "invalidValue");
    // A super admin cannot be put in a group: the directory would grant them nothing, and may not touch them.
    expectError(await scim(acmeToken, "POST", "/Groups", { displayName: "Admins", members: [{ value: "1" }] }), 400, "invalidValue");
  });

  it("a linked group grants its members the group keys and role; the link is refused outside the admin's reach", async () => {
    const groups = await api(admin, "GET", "/api/admin/user/getDirectoryGroups");
    expect(groups.body.payload).toEqual([expect.objectContaining({ id: Number(group), display_name: "Engineering", members: 1, role: null, device_groups: [] })]);
    const betaGroup = (await db().select().from(schema.deviceGroups).where(eq(schema.deviceGroups.companyId, 4)).limit(1))[0];
    expect((await api(admin, "PUT", "/api/admin/user/linkDirectoryGroup", { group_id: Number(group), device_group_ids: [betaGroup.id] })).status).toBe(404);
    expect((await api(admin, "PUT", "/api/admin/user/linkDirectoryGroup", { group_id: Number(group), role_id: 5 })).status).toBe(404);
    expect((await api(await login("beta"), "PUT", "/api/admin/user/linkDirectoryGroup", { group_id: Number(group), role_id: null })).status).toBe(404);

    const { cursor } = await feed();
    const link = await api(admin, "PUT", "/api/admin/user/linkDirectoryGroup", { group_id: Number(group), role_id: ACME_ROLE_AUDITOR, device_group_ids: [ACME_OFFICE_GROUP] });
    expect(link.status).toBe(200);
    const keys = await keysOf(grace);
    expect(keys).toEqual([expect.objectContaining({ isGroup: true, groupId: ACME_OFFICE_GROUP, scimGroupId: Number(group), accessType: "custom_access" })]);
    expect(await roleOf(grace)).toBe(ACME_ROLE_AUDITOR);
    expect((await feed(cursor)).changes.some((c) => c.type === "groupKey" && c.op === "upsert" && c.data?.userId === grace)).toBe(true);
  });

  it("joining (Entra: Add members) grants, leaving (Okta: remove members[value eq]) withdraws through the feed", async () => {
    const joined = await scim(acmeToken, "PATCH", `/Groups/${group}`, { schemas: [PATCH], Operations: [{ op: "Add", path: "members", value: [{ value: alan }] }] });
    expect(joined.status).toBe(200);
    expect(joined.body.members.map((m: { value: string }) => m.value).sort()).toEqual([grace, alan].sort());
    expect(await keysOf(alan)).toHaveLength(1);
    expect(await roleOf(alan)).toBe(ACME_ROLE_AUDITOR);
    expect((await auditsNamed("Directory Access Granted", eq(schema.activityLogs.targetUserId, Number(alan)))).length).toBe(1);

    const { cursor } = await feed();
    const [key] = await keysOf(alan);
    const left = await scim(acmeToken, "PATCH", `/Groups/${group}`, { schemas: [PATCH], Operations: [{ op: "remove", path: `members[value eq "${alan}"]` }] });
    expect(left.status).toBe(200);
    expect(left.body.members.map((m: { value: string }) => m.value)).toEqual([grace]);
    expect(await keysOf(alan)).toEqual([]);
    expect(await roleOf(alan)).toBeNull();
    expect((await feed(cursor)).changes.some((c) => c.type === "groupKey" && c.id === String(key.id) && c.op === "delete")).toBe(true);
    expect((await auditsNamed("Directory Access Withdrawn", eq(schema.activityLogs.targetUserId, Number(alan)))).length).toBe(1);

    // Entra's remove with a value list, and Okta's no-path replace of the name.
    await scim(acmeToken, "PATCH", `/Groups/${group}`, { schemas: [PATCH], Operations: [{ op: "Add", path: "members", value: [{ value: alan }] }] });
    const entraRemove = await scim(acmeToken, "PATCH", `/Groups/${group}`, { schemas: [PATCH], Operations: [{ op: "Remove", path: "members", value: [{ value: alan }] }] });
    expect(entraRemove.body.members).toHaveLength(1);
    const renamed = await scim(acmeToken, "PATCH", `/Groups/${group}`, { schemas: [PATCH], Operations: [{ op: "replace", value: { id: group, displayName: "Engineers" } }] });
    expect(renamed.body.displayName).toBe("Engineers");
  });

  it("lists groups with filters and paging, members left out on request; versions give 412", async () => {
    const list = await scim(acmeToken, "GET", `/Groups?filter=${encodeURIComponent('displayName eq "engineers"')}&excludedAttributes=members`);
    expect(list.status).toBe(200);
    expect(list.body.totalResults).toBe(1);
    expect(list.body.Resources[0].members).toBeUndefined();
    expect((await scim(acmeToken, "GET", "/Groups?startIndex=5")).body).toMatchObject({ totalResults: 1, itemsPerPage: 0, Resources: [] });
    expect((await scim(betaToken, "GET", "/Groups")).body.totalResults).toBe(0);
    expectError(await scim(betaToken, "GET", `/Groups/${group}`), 404);
    expectError(
      await scim(acmeToken, "PATCH", `/Groups/${group}`, { schemas: [PATCH], Operations: [{ op: "add", path: "members", value: [{ value: alan }] }] }, { "If-Match": 'W/"1"' }),
      412,
    );
    expect(await keysOf(alan)).toEqual([]);
  });

  it("PUT replaces the members; DELETE withdraws what the group gave and answers 204", async () => {
    const put = await scim(acmeToken, "PUT", `/Groups/${group}`, { displayName: "Engineers", members: [{ value: alan }] });
    expect(put.status).toBe(200);
    expect(await keysOf(grace)).toEqual([]);
    expect(await keysOf(alan)).toHaveLength(1);
    const del = await scim(acmeToken, "DELETE", `/Groups/${group}`);
    expect(del.status).toBe(204);
    expect(await keysOf(alan)).toEqual([]);
    expect(await roleOf(alan)).toBeNull();
    expectError(await scim(acmeToken, "GET", `/Groups/${group}`), 404);
  });
});

describe("SCIM rate limits", () => {
  it("counts each token's calls: every answer carries the limits, and past the token's limit SCIM's error body with 429 and Retry-After", async () => {
    const made = await api(admin, "POST", "/api/admin/user/createDirectoryToken", { name: "Busy directory" });
    const token: string = made.body.payload.token;
    const ok = await scim(token, "GET", "/ServiceProviderConfig");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("RateLimit-Policy")).toBe(`"caller";q=${RATE_LIMITS.caller.limit};w=60, "company";q=${RATE_LIMITS.company.limit};w=60`);
    expectError(await scim(token, "GET", "/Nothing"), 404);
    // Fixed windows: spend the token's window through the limiter itself, then call at once; a window that
    // ended between the two counts afresh, so the spending starts again (at most once more).
    const limiter = env as unknown as RateLimitEnv;
    const row = await db()
      .select()
      .from(schema.scimTokens)
      .where(eq(schema.scimTokens.id, Number(token.split(".")[0])))
      .get();
    const caller = { companyId: row!.companyId, caller: `scim:${row!.id}` };
    let refused: Scim | undefined;
    for (let round = 0; round < 2 && !refused; round++) {
      while ((await limitCaller(limiter, caller, workerNow())).allowed);
      const r = await scim(token, "GET", "/Users");
      if (r.status !== 200) refused = r;
    }
    expectError(refused!, 429);
    expect(refused!.body.detail).toBe(RATE_LIMIT_MESSAGE);
    const retry = Number(refused!.headers.get("Retry-After"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused!.headers.get("RateLimit")).toMatch(new RegExp(`^"caller";r=0;t=${retry}, "company";r=\\d+;t=\\d+$`));
    // The company's other token is not held back by this one's window.
    expect((await scim(acmeToken, "GET", "/ServiceProviderConfig")).status).toBe(200);
  });
});
