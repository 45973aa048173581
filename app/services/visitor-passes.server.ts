/**
 * Visitor passes (issue 32, docs/decisions/0096-visitor-passes.md). A host invites a guest, who has no
 * account: the guest gets a link by mail and/or text, the first phone that opens it is bound to the pass, and that
 * phone holds a signed credential of kind `pass` (gateway/PROTOCOL.md, "Visitor passes") which boards
 * decide online or alone. The pass travels in the change feed (`pass` records, deleted when revoked),
 * a door's report of its use marks it first used (the host is mailed once, and texted if asked) and spends a one-entry pass.
 *
 * Who hosts: whoever may add users, and users of the roles the company's rules name. Whoever holds the
 * users module sees and revokes every pass; a host sees and revokes their own.
 */
import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Core, EKeyWindow } from "~core";
import { PASS_MSG as MSG, type PassInput, type PassRulesInput, type PassState } from "~/schemas/visitor-passes";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, companyZone, type Auth } from "~/utils/auth-guards.server";
import { can } from "~/utils/permissions";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { hashSecret, newSecret, verifySecret } from "~/utils/secret-hash.server";
import { mayHost, passRules } from "~/utils/visitor-pass-rules.server";
import { credentialLifeHours, type PhoneSettings } from "./mobile.server";
import { settingsOf } from "./auth.server";
import { requireCredentialKeys } from "./credential-keys.server";
import { credentialExpiry, signCredential, type IssuedCredential } from "./credentials.server";
import { passFeedId, passWindow } from "./visitor-pass-window";

const p = schema.visitorPasses;
const r = schema.visitorPassRules;
type Pass = typeof p.$inferSelect;
type BatchItem = Parameters<Db["batch"]>[0][number];

const DAY_MS = 86_400_000;

export async function getPassRules(db: Db, auth: Auth) {
  assertCan(auth, ["users", "company_settings"]);
  return passRules(db, auth.company.id);
}

export async function savePassRules(db: Db, auth: Auth, input: PassRulesInput, now: number) {
  assertCan(auth, "company_settings", "modify");
  if (input.deviceGroupId != null) await liveGroup(db, auth.company.id, input.deviceGroupId);
  const roles = input.hostRoleIds.length
    ? await db
        .select({ id: schema.roles.id })
        .from(schema.roles)
        .where(and(eq(schema.roles.companyId, auth.company.id), inArray(schema.roles.id, input.hostRoleIds)))
    : [];
  if (roles.length !== new Set(input.hostRoleIds).size) throw new ServiceError(400, "Unknown role", { fieldErrors: { hostRoleIds: ["Unknown role"] } });
  const values = { maxDays: input.maxDays, hostRoleIds: [...new Set(input.hostRoleIds)], deviceGroupId: input.deviceGroupId, updatedAt: now };
  await db.batch([
    db
      .insert(r)
      .values({ companyId: auth.company.id, ...values })
      .onConflictDoUpdate({ target: r.companyId, set: values }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Visitor Pass Rules Modified",
      operationType: "Admin",
      createdByUserId: auth.user.id,
      summary: `Visitor rules: at most ${values.maxDays} days${values.deviceGroupId ? `, doors of group ${values.deviceGroupId}` : ""}`,
      details: values,
      at: now,
    }),
  ]);
  return { message: MSG.rulesSaved };
}

const seesAll = (auth: Auth) => can(auth.permissions, "users");

/** The endpoints' rule, before any input: a host, or someone who sees every pass. */
export async function assertPassUser(db: Db, auth: Auth, { hosting }: { hosting: boolean }) {
  const rules = await passRules(db, auth.company.id);
  if (!mayHost(auth, rules) && (hosting || !seesAll(auth))) throw new ServiceError(403, "You do not have permission to do this");
}

async function liveGroup(db: Db, companyId: number, id: number) {
  const g = schema.deviceGroups;
  const [row] = await db
    .select({ id: g.id })
    .from(g)
    .where(and(eq(g.id, id), eq(g.companyId, companyId), isNull(g.deletedAt)));
  if (!row) throw new ServiceError(400, MSG.doorsRequired, { fieldErrors: { deviceGroupId: [MSG.doorsRequired] } });
  return row;
}

async function groupMembers(db: Db, groupId: number): Promise<number[]> {
  const m = schema.deviceGroupMembers;
  return (await db.select({ id: m.deviceId }).from(m).where(eq(m.groupId, groupId))).map((x) => x.id);
}

/** Checks the doors against the company and its rules' bound; returns the door ids the pass opens now. */
async function checkDoors(db: Db, companyId: number, input: Pick<PassInput, "deviceIds" | "deviceGroupId">, bound: number | null): Promise<number[]> {
  let doors = input.deviceIds;
  if (input.deviceGroupId != null) {
    await liveGroup(db, companyId, input.deviceGroupId);
    doors = await groupMembers(db, input.deviceGroupId);
  } else {
    const d = schema.devices;
    const found = await db
      .select({ id: d.id })
      .from(d)
      .where(and(eq(d.companyId, companyId), isNull(d.deletedAt), inArray(d.id, doors)));
    if (found.length !== new Set(doors).size) throw new ServiceError(400, MSG.doorsRequired, { fieldErrors: { deviceIds: [MSG.doorsRequired] } });
  }
  if (bound != null) {
    const allowed = new Set(await groupMembers(db, bound));
    const outside = input.deviceGroupId != null ? input.deviceGroupId !== bound && doors.some((id) => !allowed.has(id)) : doors.some((id) => !allowed.has(id));
    if (outside) throw new ServiceError(422, MSG.doorNotAllowed, { fieldErrors: { [input.deviceGroupId != null ? "deviceGroupId" : "deviceIds"]: [MSG.doorNotAllowed] } });
  }
  return doors;
}

/** Days the visit spans, counting both ends. */
const spanDays = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;

async function hostOf(db: Db, auth: Auth, hostUserId: number | null) {
  if (hostUserId == null || hostUserId === auth.user.id) return { id: auth.user.id, name: auth.user.displayName, email: auth.user.email };
  assertCan(auth, "users", "add");
  const u = schema.users;
  const [host] = await db
    .select({ id: u.id, name: u.displayName, email: u.email })
    .from(u)
    .where(and(eq(u.id, hostUserId), eq(u.companyId, auth.company.id), isNull(u.deletedAt), eq(u.isInactive, false)));
  if (!host) throw new ServiceError(400, MSG.hostInvalid, { fieldErrors: { hostUserId: [MSG.hostInvalid] } });
  return host;
}

/**
 * The guest's link: the phone app with the pass id and a secret, of which only a keyed hash is stored. In
 * the fragment, the secret never reaches a server's request log, and the app's kept page opens it offline.
 */
const linkUrl = (origin: string, id: number, secret: string) => `${origin}/m#pass=${id}.${secret}`;

function inviteMail(lang: "en" | "es", company: string, host: string, guest: string, url: string, when: string) {
  return {
    en: {
      subject: `Your visitor pass for ${company}`,
      body: `Hello ${guest}, ${host} invited you to ${company} (${when}). Open this link on your phone to get your pass; it works on that phone only, and at the door even without network: ${url}`,
    },
    es: {
      subject: `Su pase de visitante para ${company}`,
      body: `Hola ${guest}: ${host} le ha invitado a ${company} (${when}). Abra este enlace en su móvil para obtener su pase; solo funciona en ese móvil, y en la puerta incluso sin conexión: ${url}`,
    },
  }[lang];
}

/** The guest's text: short, as a text is read on the phone that will hold the pass. */
function inviteText(lang: "en" | "es", company: string, host: string, url: string, when: string) {
  return {
    en: `${host} invited you to ${company} (${when}). Your visitor pass, for the phone that opens it first: ${url}`,
    es: `${host} le ha invitado a ${company} (${when}). Su pase de visitante, para el primer móvil que lo abra: ${url}`,
  }[lang];
}

const visitText = (x: Pick<Pass, "startDate" | "endDate" | "startTime" | "endTime" | "oneEntry">, lang: "en" | "es") => {
  const days = x.startDate === x.endDate ? x.startDate : `${x.startDate} – ${x.endDate}`;
  const once = x.oneEntry ? (lang === "es" ? ", una entrada" : ", one entry") : "";
  return `${days}, ${x.startTime}–${x.endTime}${once}`;
};

/** Invites a guest: the pass, its feed record (trigger), the guest's mail and/or text and the audit entry, in one batch. */
export async function createPass(db: Db, auth: Auth, input: PassInput, ctx: { now: number; origin: string; core: Core }) {
  await assertPassUser(db, auth, { hosting: true });
  // A guest's phone has no registered authenticator: its credential would be refused at every door.
  if ((await settingsOf(db, auth.company.id))?.biometricSecurity) throw new ServiceError(422, MSG.biometricRequired);
  const rules = await passRules(db, auth.company.id);
  const host = await hostOf(db, auth, input.hostUserId);
  await checkDoors(db, auth.company.id, input, rules.deviceGroupId);
  if (spanDays(input.startDate, input.endDate) > rules.maxDays) throw new ServiceError(422, MSG.tooLong, { fieldErrors: { endDate: [MSG.tooLong] } });
  const tz = companyZone(auth);
  const window = passWindow({ ...input, usedAt: null }, tz);
  if (ctx.core.validate(window).length > 0) throw new ServiceError(400, MSG.dateInvalid, { fieldErrors: { startDate: [MSG.dateInvalid] } });
  const next = ctx.core.nextChange(window, ctx.now);
  if (!next.open && next.nextOpen == null) throw new ServiceError(422, MSG.inThePast, { fieldErrors: { endDate: [MSG.inThePast] } });
  const lastClose = ctx.core.occurrences(window, ctx.now, ctx.now + (rules.maxDays + 2) * DAY_MS).at(-1)?.[1] ?? ctx.now + DAY_MS;

  const secret = newSecret();
  const [created] = await db
    .insert(p)
    .values({
      companyId: auth.company.id,
      hostUserId: host.id,
      createdByUserId: auth.user.id,
      guestName: input.guestName,
      guestEmail: input.guestEmail,
      guestPhone: input.guestPhone,
      language: input.language,
      deviceIds: input.deviceGroupId != null ? [] : [...new Set(input.deviceIds)],
      deviceGroupId: input.deviceGroupId,
      oneEntry: input.oneEntry,
      hostText: input.hostText,
      startDate: input.startDate,
      endDate: input.endDate,
      startTime: input.startTime,
      endTime: input.endTime,
      linkHash: await hashSecret(secret),
      linkExpiresAt: lastClose,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: p.id });
  const url = linkUrl(ctx.origin, created.id, secret);
  const when = visitText({ ...input }, input.language);
  const writes: BatchItem[] = [
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Visitor Pass Created",
      operationType: "Admin",
      createdByUserId: auth.user.id,
      targetUserId: host.id,
      summary: `Visitor pass for ${input.guestName}, hosted by ${host.name} (${visitText(input, "en")})`,
      details: { passId: created.id, guest: input.guestName, hostUserId: host.id, deviceIds: input.deviceIds, deviceGroupId: input.deviceGroupId },
      at: ctx.now,
    }),
  ];
  if (input.guestEmail) {
    const mail = inviteMail(input.language, auth.company.name, host.name, input.guestName, url, when);
    writes.push(db.insert(schema.mailOutbox).values({ companyId: auth.company.id, toAddress: input.guestEmail, subject: mail.subject, body: mail.body, createdAt: ctx.now }));
  }
  if (input.guestPhone)
    writes.push(
      db.insert(schema.textOutbox).values({
        companyId: auth.company.id,
        userId: null,
        toNumber: input.guestPhone,
        passId: created.id,
        body: inviteText(input.language, auth.company.name, host.name, url, when),
        purpose: "Visitor pass link",
        dedupeKey: `pass-invite:${created.id}`,
        createdAt: ctx.now,
      }),
    );
  await db.batch(writes as [BatchItem, ...BatchItem[]]);
  return { message: MSG.created, id: created.id, link: url };
}

/** A pass's state at `now`, in the company's zone (dates are local). */
export function passState(x: Pick<Pass, "revokedAt" | "usedAt" | "oneEntry" | "startDate" | "endDate" | "endTime">, today: string, timeNow: string): PassState {
  if (x.revokedAt != null) return "revoked";
  if (x.oneEntry && x.usedAt != null) return "used";
  if (x.endDate < today || (x.endDate === today && x.endTime <= timeNow)) return "expired";
  if (x.startDate > today) return "upcoming";
  return "active";
}

/** Where `state` holds, as SQL over the local date and time now. */
function stateWhere(state: PassState, today: string, timeNow: string): SQL {
  const ended = or(lt(p.endDate, today), and(eq(p.endDate, today), sql`${p.endTime} <= ${timeNow}`))!;
  const live = and(isNull(p.revokedAt), or(eq(p.oneEntry, false), isNull(p.usedAt)))!;
  switch (state) {
    case "revoked":
      return isNotNull(p.revokedAt);
    case "used":
      return and(isNull(p.revokedAt), eq(p.oneEntry, true), isNotNull(p.usedAt))!;
    case "expired":
      return and(live, ended)!;
    case "upcoming":
      return and(live, sql`${p.startDate} > ${today}`)!;
    case "active":
      return and(live, sql`${p.startDate} <= ${today}`, sql`not (${ended})`)!;
  }
}

export type PassRow = Omit<Pass, "linkHash" | "installationId"> & { state: PassState; hostName: string; groupName: string | null; phoneBound: boolean };

/** The passes list: every pass for the users module's holders, a host's own otherwise; newest first. */
export async function listPasses(db: Db, core: Core, auth: Auth, opts: { state?: PassState; page: number; pageSize: number }, now: number) {
  await assertPassUser(db, auth, { hosting: false });
  const local = core.formatLocal(now, companyZone(auth));
  const [today, timeNow] = [local.slice(0, 10), local.slice(11, 16)];
  const where = and(eq(p.companyId, auth.company.id), seesAll(auth) ? undefined : eq(p.hostUserId, auth.user.id), opts.state ? stateWhere(opts.state, today, timeNow) : undefined);
  const u = schema.users;
  const g = schema.deviceGroups;
  const [rows, [total]] = await db.batch([
    db
      .select({ pass: p, hostName: u.displayName, groupName: g.fullName })
      .from(p)
      .innerJoin(u, eq(u.id, p.hostUserId))
      .leftJoin(g, eq(g.id, p.deviceGroupId))
      .where(where)
      .orderBy(desc(p.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
    countWhere(db, p, where!),
  ]);
  const out: PassRow[] = rows.map(({ pass: { linkHash: _h, installationId, ...x }, hostName, groupName }) => ({
    ...x,
    hostName,
    groupName,
    phoneBound: installationId != null,
    state: passState(x, today, timeNow),
  }));
  return { rows: out, total: total?.n ?? 0 };
}

/** Withdraws a pass: the feed deletes it (boards get it in their revocation list) and its link stops working. */
export async function revokePass(db: Db, auth: Auth, id: number, now: number) {
  const [x] = await db
    .select()
    .from(p)
    .where(and(eq(p.id, id), eq(p.companyId, auth.company.id)));
  if (!x || (!seesAll(auth) && x.hostUserId !== auth.user.id)) return notFound(MSG.notFound);
  // A host withdraws their own guest; anyone else's needs the right to delete users.
  if (x.hostUserId !== auth.user.id) assertCan(auth, "users", "delete");
  if (x.revokedAt != null) throw new ServiceError(409, MSG.alreadyRevoked);
  const [, done] = await db.batch([
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Visitor Pass Revoked",
      operationType: "Admin",
      createdByUserId: auth.user.id,
      summary: `Visitor pass for ${x.guestName} revoked`,
      details: { passId: id },
      at: now,
    }),
    db
      .update(p)
      .set({ revokedAt: now, updatedAt: now })
      .where(and(eq(p.id, id), isNull(p.revokedAt)))
      .returning({ id: p.id }),
  ]);
  if (done.length === 0) throw new ServiceError(409, MSG.alreadyRevoked);
  return { message: MSG.revoked };
}

export type GuestPass = {
  id: string;
  guestName: string;
  /** The language the host invited the guest in: the phone app shows the pass in it. */
  language: "en" | "es";
  company: string;
  hostName: string;
  doors: { id: number; name: string }[];
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
  tz: string;
  /** The pass's access window, for the phone's "open now" by the same core the doors run. */
  window: EKeyWindow;
  oneEntry: boolean;
  used: boolean;
  credential: IssuedCredential | null;
  refreshBy: number;
};

/**
 * The guest's phone opens its link (no account): the first phone is bound, any other is refused. Answers
 * the pass with a fresh signed credential (none once it never opens again), which the phone keeps for
 * offline use and refreshes whenever it is online. Opening is in the activity log once, as the guest's.
 */
export async function openPass(db: Db, core: Core, env: Env, input: { token: string; installationId: string }, now: number): Promise<GuestPass> {
  const [idText, secret] = input.token.split(".");
  const id = Number(idText);
  const [x] = Number.isSafeInteger(id) && secret ? await db.select().from(p).where(eq(p.id, id)) : [];
  if (!x || x.revokedAt != null || !(await verifySecret(secret, x.linkHash))) throw new ServiceError(404, MSG.linkInvalid, { errorCode: "pass-invalid" });
  if (now > x.linkExpiresAt) throw new ServiceError(410, MSG.linkExpired, { errorCode: "pass-expired" });
  if (x.installationId == null) {
    const [bound] = await db.batch([
      db
        .update(p)
        .set({ installationId: input.installationId, boundAt: now, updatedAt: now })
        .where(and(eq(p.id, id), isNull(p.installationId)))
        .returning({ id: p.id }),
      activityInsert(db, {
        companyId: x.companyId,
        name: "Visitor Pass Opened",
        operationType: "App",
        summary: `${x.guestName} opened their visitor pass on a phone`,
        details: { passId: id },
        at: now,
      }),
    ]);
    // Two phones at once: the one whose update ran first holds it.
    if (bound.length === 0) return openPass(db, core, env, input, now);
  } else if (x.installationId !== input.installationId) throw new ServiceError(409, MSG.otherPhone, { errorCode: "pass-other-phone" });
  return guestPass(db, core, env, x, input.installationId, now);
}

async function guestPass(db: Db, core: Core, env: Env, x: Pass, installationId: string, now: number): Promise<GuestPass> {
  const [[company], [host], settingsRow, zone] = await Promise.all([
    db.select({ code: schema.companies.code, name: schema.companies.name, cell: schema.companies.cell }).from(schema.companies).where(eq(schema.companies.id, x.companyId)),
    db.select({ name: schema.users.displayName }).from(schema.users).where(eq(schema.users.id, x.hostUserId)),
    settingsOf(db, x.companyId),
    companyZoneOf(db, x.companyId),
  ]);
  const d = schema.devices;
  const doorIds = x.deviceGroupId != null ? await groupMembers(db, x.deviceGroupId) : x.deviceIds;
  const doors = doorIds.length
    ? await db
        .select({ id: d.id, name: sql<string>`coalesce(nullif(${d.displayName}, ''), ${d.fullName})` })
        .from(d)
        .where(and(eq(d.companyId, x.companyId), isNull(d.deletedAt), inArray(d.id, doorIds)))
    : [];
  const window = passWindow(x, zone);
  const settings = { offlineReconnectHours: settingsRow?.offlineReconnectHours ?? 24, temporaryEkeyHours: settingsRow?.ekeyDurationHours ?? 24 } as PhoneSettings;
  const expiresAt = doors.length ? credentialExpiry(core, window, now, credentialLifeHours(settings)) : null;
  const signer = (await requireCredentialKeys(env)).signerOf(company.cell);
  const credential =
    expiresAt != null && expiresAt > now
      ? await signCredential(
          signer,
          {
            sub: passFeedId(x.id),
            cid: company.code,
            key: { id: passFeedId(x.id), kind: "pass" },
            doors: doors.map((door) => String(door.id)),
            ...(x.deviceGroupId != null ? { grp: String(x.deviceGroupId) } : {}),
            win: window,
            pid: installationId,
          },
          now,
          expiresAt,
        )
      : null;
  return {
    id: passFeedId(x.id),
    guestName: x.guestName,
    language: x.language,
    company: company.name,
    hostName: host?.name ?? "",
    doors,
    startDate: x.startDate,
    endDate: x.endDate,
    startTime: x.startTime,
    endTime: x.endTime,
    tz: zone,
    window,
    oneEntry: x.oneEntry,
    used: x.usedAt != null,
    credential,
    refreshBy: now + settings.offlineReconnectHours * 3_600_000,
  };
}

async function companyZoneOf(db: Db, companyId: number): Promise<string> {
  const [row] = await db
    .select({ name: schema.timeZones.name })
    .from(schema.timeZones)
    .innerJoin(schema.companySettings, eq(schema.companySettings.defaultTimeZoneId, schema.timeZones.id))
    .where(eq(schema.companySettings.companyId, companyId));
  return row?.name ?? "UTC";
}

/**
 * Doors' reports of a pass that opened (`access.granted` with `keyKind: "pass"`, gateway-events.server.ts):
 * the first entry is recorded and its host mailed (and texted, if the host asked) once, a one-entry pass is spent (the feed then tells
 * every gateway). Statements safe to run again: each sets only what is not set yet.
 */
export async function passEntryStatements(db: Db, entries: Map<number, { at: number; companyId: number; door: string }>, now: number): Promise<BatchItem[]> {
  if (entries.size === 0) return [];
  const rows = await db
    .select({ pass: p, hostEmail: schema.users.email, companyName: schema.companies.name, lang: schema.companySettings.language })
    .from(p)
    .innerJoin(schema.users, eq(schema.users.id, p.hostUserId))
    .innerJoin(schema.companies, eq(schema.companies.id, p.companyId))
    .leftJoin(schema.companySettings, eq(schema.companySettings.companyId, p.companyId))
    .where(inArray(p.id, [...entries.keys()]));
  const out: BatchItem[] = [];
  for (const { pass: x, hostEmail, companyName, lang } of rows) {
    const e = entries.get(x.id)!;
    if (e.companyId !== x.companyId) continue;
    if (x.oneEntry)
      out.push(
        db
          .update(p)
          .set({ usedAt: e.at, updatedAt: now })
          .where(and(eq(p.id, x.id), isNull(p.usedAt))),
      );
    if (x.firstEntryAt != null) continue;
    out.push(
      db
        .update(p)
        .set({ firstEntryAt: e.at, updatedAt: now })
        .where(and(eq(p.id, x.id), isNull(p.firstEntryAt))),
    );
    const es = lang === "es";
    out.push(
      db
        .insert(schema.mailOutbox)
        .values({
          companyId: x.companyId,
          toAddress: hostEmail,
          subject: es ? `Su invitado ${x.guestName} ha llegado` : `Your guest ${x.guestName} has arrived`,
          body: es
            ? `${x.guestName} ha entrado por ${e.door} con su pase de visitante de ${companyName}.`
            : `${x.guestName} came in through ${e.door} with their ${companyName} visitor pass.`,
          dedupeKey: `pass-arrival:${x.id}`,
          createdAt: now,
        })
        .onConflictDoNothing(),
    );
    // The host's number is read when the text is sent (text-outbox.server.ts).
    if (x.hostText)
      out.push(
        db
          .insert(schema.textOutbox)
          .values({
            companyId: x.companyId,
            userId: x.hostUserId,
            body: es ? `${x.guestName} ha llegado: entró por ${e.door} (${companyName}).` : `${x.guestName} has arrived: came in through ${e.door} (${companyName}).`,
            purpose: "Visitor arrival",
            dedupeKey: `pass-arrival:${x.id}`,
            createdAt: now,
          })
          .onConflictDoNothing(),
      );
  }
  return out;
}

type Choice = { id: number; label: string };

/**
 * What the console's invite and rules forms pick from: the company's live doors and device groups
 * (narrowed to the rules' bounding group, when there is one: a door outside it, or a group with such a
 * door, would only be refused), its roles and, for whoever may name another host, its active users.
 */
export async function passChoices(db: Db, auth: Auth, { bounded }: { bounded: boolean }) {
  const c = auth.company.id;
  const { devices: d, deviceGroups: g, deviceGroupMembers: m, roles: ro, users: u } = schema;
  const rules = await passRules(db, c);
  const [doors, groups, members, roles, hosts] = await db.batch([
    db
      .select({ id: d.id, label: d.fullName })
      .from(d)
      .where(and(eq(d.companyId, c), isNull(d.deletedAt)))
      .orderBy(d.fullName)
      .limit(500),
    db
      .select({ id: g.id, label: g.fullName })
      .from(g)
      .where(and(eq(g.companyId, c), isNull(g.deletedAt)))
      .orderBy(g.fullName)
      .limit(500),
    db
      .select({ groupId: m.groupId, deviceId: m.deviceId })
      .from(m)
      .innerJoin(g, eq(g.id, m.groupId))
      .where(and(eq(g.companyId, c), isNull(g.deletedAt))),
    db.select({ id: ro.id, label: ro.title }).from(ro).where(eq(ro.companyId, c)).orderBy(ro.title).limit(200),
    db
      .select({ id: u.id, label: u.displayName, email: u.email })
      .from(u)
      .where(and(eq(u.companyId, c), isNull(u.deletedAt), eq(u.isInactive, false)))
      .orderBy(u.displayName)
      .limit(can(auth.permissions, "users", "add") ? 500 : 0),
  ]);
  const bound = bounded && rules.deviceGroupId != null ? new Set(members.filter((x) => x.groupId === rules.deviceGroupId).map((x) => x.deviceId)) : null;
  const inBound = (id: number) => bound == null || bound.has(id);
  const groupDoors = (id: number) => members.filter((x) => x.groupId === id).map((x) => x.deviceId);
  return {
    rules,
    doors: doors.filter((x) => inBound(x.id)) as Choice[],
    groups: groups.filter((x) => bound == null || x.id === rules.deviceGroupId || groupDoors(x.id).every(inBound)) as Choice[],
    roles: roles as Choice[],
    hosts,
  };
}

/** The names of a page of passes' doors, by id (the company's, deleted ones included: a pass keeps naming them). */
export async function passDoorNames(db: Db, auth: Auth, ids: number[]): Promise<Record<number, string>> {
  if (ids.length === 0) return {};
  const d = schema.devices;
  const rows = await db
    .select({ id: d.id, name: d.fullName })
    .from(d)
    .where(and(eq(d.companyId, auth.company.id), inArray(d.id, [...new Set(ids)].slice(0, 500))));
  return Object.fromEntries(rows.map((x) => [x.id, x.name]));
}
