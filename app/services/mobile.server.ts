/**
 * The phone app's side of the console (/api/mobile/*, docs/decisions/0028-signed-offline-credentials.md):
 * sign-in bound to a phone installation, the caller's keys with their windows and signed offline
 * credentials, the caller's activity, unlock attempts reported by the phone, sign-out.
 *
 * The company settings that concern the phone take effect here:
 * - multi-phone login off: a user is bound to the first phone that signs in until "forget device";
 * - offline reconnect hours and temporary e-key duration: a credential lives for the shorter of the two
 *   (and never past its key's end), so the phone must come back online within that time;
 * - biometric requirement: the keys call signs only after a verified WebAuthn assertion of the phone's
 *   registered platform authenticator (phone-webauthn.server.ts), and the credentials carry its instant
 *   (`uv`), which the company's boards require (docs/decisions/0039-biometric-claim.md).
 */
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { AccessWindow, Core } from "~core";
import { BIO_MSG } from "~/schemas/phone-webauthn";
import { MOBILE_MSG, type AppEventsInput, type MobileLoginInput, type MobileTwoFactorInput } from "~/schemas/mobile";
import { loginPayload, settingsOf, signIn, signInWithCode, type Account, type LoginPayload, type Settings } from "~/services/auth.server";
import { ingestActivity } from "~/services/activity-ingest.server";
import { activityInsert, type ActivityEntry } from "~/utils/activity-insert.server";
import type { Auth } from "~/utils/auth-guards.server";
import type { CompanyLogEnv, LogDb } from "~/utils/company-log.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { deleteSession, newSession } from "~/utils/session.server";
import { requireCredentialKeys } from "./credential-keys.server";
import { smsSender } from "./sms/sender.server";
import { credentialExpiry, signCredential, signLockdownState, type IssuedCredential } from "./credentials.server";
import { lockdownRecord } from "./lockdown.server";
import { ekeyWindow, groupKeyWindow, loadCompany, type CompanyState } from "./door-decision.server";

/** A phone stays signed in this long; its credentials expire much sooner (settings), so it refreshes them while signed in. */
export const MOBILE_SESSION_MS = 30 * 24 * 3_600_000;
const DEFAULT_MIN_APP_VERSION = "1.0.0";

export type PhoneSettings = {
  multiPhoneLogin: boolean;
  offlineReconnectHours: number;
  temporaryEkeyHours: number;
  biometricRequired: boolean;
  twoFactorRequired: boolean;
};
export type MobileLoginResult = { token: string; message: string; payload: LoginPayload & { settings: PhoneSettings } };
type CallContext = { request: Request; now: number; env: Env };

function phoneSettings(s: Settings): PhoneSettings {
  return {
    multiPhoneLogin: Boolean(s?.isMultiPhoneLogin),
    offlineReconnectHours: s?.offlineReconnectHours ?? 24,
    temporaryEkeyHours: s?.ekeyDurationHours ?? 24,
    biometricRequired: Boolean(s?.biometricSecurity),
    twoFactorRequired: Boolean(s?.require2fa),
  };
}

/** Hours a credential issued now lives: the shorter of the offline reconnect hours and the temporary e-key duration. */
export const credentialLifeHours = (s: PhoneSettings) => Math.max(1, Math.min(s.offlineReconnectHours, s.temporaryEkeyHours));

/** Dotted versions compared number by number (1.10.0 is above 1.9.3; a missing part counts as 0). */
export function versionBelow(version: string, minimum: string): boolean {
  const a = version.split(".").map(Number);
  const b = minimum.split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return false;
}

function assertAppVersion(env: Env, appVersion: string) {
  const minimum = env.MOBILE_MIN_APP_VERSION?.trim() || DEFAULT_MIN_APP_VERSION;
  if (versionBelow(appVersion, minimum)) throw new ServiceError(426, MOBILE_MSG.updateRequired, { errorCode: "app-update-required", payload: { minimumVersion: minimum } });
}

/** With multi-phone login off, a user signs in only from the phone bound to them (none bound: this one will be). */
function assertPhoneAllowed(account: Account, settings: Settings, installationId: string) {
  const bound = account.user.boundDeviceId;
  if (!settings?.isMultiPhoneLogin && bound && bound !== installationId) throw new ServiceError(409, MOBILE_MSG.singleDevice, { errorCode: "single-device" });
}

export async function mobileLogin(db: Db, input: MobileLoginInput, ctx: CallContext): Promise<MobileLoginResult> {
  assertAppVersion(ctx.env, input.appVersion);
  const { account, settings } = await signIn(db, input, { ...ctx, sms: smsSender(ctx.env) }, "mobile", (a, s) => assertPhoneAllowed(a, s, input.installationId));
  return startMobileSession(db, account, settings, input, ctx);
}

export async function mobileTwoFactor(db: Db, input: MobileTwoFactorInput, ctx: CallContext): Promise<MobileLoginResult> {
  assertAppVersion(ctx.env, input.appVersion);
  const { account, settings } = await signInWithCode(db, input, ctx, "mobile", (a, s) => assertPhoneAllowed(a, s, input.installationId));
  return startMobileSession(db, account, settings, input, ctx);
}

/**
 * Opens the session and, with multi-phone login off, binds the user to this phone. The binding only
 * takes when no other phone got there first (two phones signing in at once: one wins, the other is
 * refused and its session removed).
 */
async function startMobileSession(
  db: Db,
  account: Account,
  settings: Settings,
  input: { installationId: string; language?: "en" | "es" },
  ctx: CallContext,
): Promise<MobileLoginResult> {
  const { user, company } = account;
  const u = schema.users;
  const single = !settings?.isMultiPhoneLogin;
  const session = await newSession({
    userId: user.id,
    companyId: company.id,
    kind: "mobile",
    request: ctx.request,
    now: ctx.now,
    lifetimeMs: MOBILE_SESSION_MS,
    installationId: input.installationId,
    lang: input.language,
  });
  const bind = db
    .update(u)
    .set(single ? { boundDeviceId: input.installationId, lastActivityAt: ctx.now } : { lastActivityAt: ctx.now })
    .where(and(eq(u.id, user.id), single ? or(isNull(u.boundDeviceId), eq(u.boundDeviceId, input.installationId)) : undefined))
    .returning({ bound: u.boundDeviceId });
  const [, bound] = await db.batch([
    db.insert(schema.sessions).values(session.values),
    bind,
    activityInsert(db, {
      companyId: company.id,
      name: "User Logs In",
      operationType: "App",
      createdByUserId: user.id,
      targetUserId: user.id,
      summary: `${user.displayName} signed in to the mobile app`,
      details: { installationId: input.installationId },
      at: ctx.now,
    }),
  ]);
  if (single && bound.length === 0) {
    await deleteSession(db, session.id);
    throw new ServiceError(409, MOBILE_MSG.singleDevice, { errorCode: "single-device" });
  }
  return { token: session.token, message: "Login successful", payload: { ...loginPayload(account), settings: phoneSettings(settings) } };
}

/** Only a phone's own session may use the phone calls; console and admin API tokens may not. */
export function assertMobile(auth: Auth): string {
  if (auth.session.kind !== "mobile" || !auth.session.installationId) throw new ServiceError(403, "This call is for the mobile app");
  return auth.session.installationId;
}

export type PhoneKey = {
  id: number;
  kind: "ekey" | "group";
  name: string;
  doors: { id: number; name: string }[];
  groupId: number | null;
  accessType: string;
  window: AccessWindow;
  /** The window is invalid (console data error): it never opens. */
  invalid: boolean;
  openNow: boolean;
  /** Epoch ms: when an open key closes, when a closed key next opens (null: not within five years). */
  until: number | null;
  nextOpen: number | null;
  credential: IssuedCredential | null;
};

/**
 * The caller's keys, on configured doors: e-keys on a door and keys of live groups, each with its
 * window, "open now / next open" from the core, and a fresh signed credential (none for a key that never
 * opens again or has no door). `verifiedAt`: when the console verified the phone's user (a WebAuthn
 * assertion checked by the caller); required when the company requires biometrics, and then carried by
 * every credential as `uv`. Without it such a company's phone gets a 403 and nothing is signed.
 */
export async function myKeys(
  db: Db,
  core: Core,
  env: Env,
  auth: Auth,
  now: number,
  verifiedAt?: number,
): Promise<{ keys: PhoneKey[]; settings: PhoneSettings; refreshBy: number; lockdownState: string | null }> {
  const installationId = assertMobile(auth);
  const [state, settingsRow] = await Promise.all([loadCompany(db, auth.company.id, { userId: auth.user.id }), settingsOf(db, auth.company.id)]);
  const settings = phoneSettings(settingsRow);
  if (settings.biometricRequired && verifiedAt === undefined) throw new ServiceError(403, BIO_MSG.required, { errorCode: "biometric-required" });
  const uv = verifiedAt === undefined ? {} : { uv: Math.floor(verifiedAt / 1000) };
  const user = state.users.get(auth.user.id);
  const signer = (await requireCredentialKeys(env)).signerOf(state.cell);
  const lifeHours = credentialLifeHours(settings);
  const boundPhone = !settings.multiPhoneLogin && user?.boundDeviceId === installationId ? installationId : undefined;
  const out: PhoneKey[] = [];
  for (const { key: k, name, doors, window } of heldKeys(state, auth.user.id)) {
    const key: PhoneKey = {
      id: k.id,
      kind: k.isGroup ? "group" : "ekey",
      name,
      doors,
      groupId: k.groupId,
      accessType: k.accessType,
      window,
      invalid: false,
      openNow: false,
      until: null,
      nextOpen: null,
      credential: null,
    };
    if (core.validate(window).length > 0) {
      out.push({ ...key, invalid: true });
      continue;
    }
    const next = core.nextChange(window, now);
    key.openNow = next.open;
    key.until = next.open ? next.nextChange : null;
    key.nextOpen = next.open ? null : next.nextOpen;
    const expiresAt = doors.length ? credentialExpiry(core, window, now, lifeHours) : null;
    if (expiresAt != null && expiresAt > now) {
      key.credential = await signCredential(
        signer,
        {
          sub: String(auth.user.id),
          cid: auth.company.code,
          key: { id: String(k.id), kind: key.kind },
          doors: doors.map((d) => String(d.id)),
          ...(k.isGroup && k.groupId != null ? { grp: String(k.groupId) } : {}),
          win: window,
          ...(boundPhone ? { pid: boundPhone } : {}),
          ...uv,
        },
        now,
        expiresAt,
      );
    }
    out.push(key);
  }
  // The company's lockdown state, signed, for the phone to present to boards cut off from their gateway.
  const [lockdown] = await db.select().from(schema.companyLockdowns).where(eq(schema.companyLockdowns.companyId, auth.company.id));
  const lockdownState = lockdown ? await signLockdownState(signer, await lockdownRecord(db, lockdown, auth.company.code), now) : null;
  return { keys: out, settings, refreshBy: now + settings.offlineReconnectHours * 3_600_000, lockdownState };
}

/**
 * A user's keys as the phone holds them: each with its name, window and the doors it opens. A group key
 * of a group that is gone, and an e-key whose door is not in service, are not held.
 */
export function heldKeys(state: CompanyState, userId: number): { key: CompanyState["keys"][number]; name: string; doors: { id: number; name: string }[]; window: AccessWindow }[] {
  // The doors' own rule (door-decision.server.ts, rule 3): only a configured door opens, so only it gets credentials.
  const inService = (id: number | null) => {
    const d = id == null ? undefined : state.devices.get(id);
    return d && d.status === "configured" ? d : undefined;
  };
  const door = (d: { id: number; displayName: string | null; fullName: string }) => ({ id: d.id, name: d.displayName || d.fullName });
  return state.keys
    .filter((k) => k.userId === userId)
    .flatMap((key) => {
      if (key.isGroup) {
        const g = key.groupId == null ? undefined : state.liveGroups.get(key.groupId);
        if (!g) return [];
        const doors = [...state.devices.values()].filter((d) => inService(d.id) && (state.groupsOfDevice.get(d.id) ?? []).includes(g.id)).map(door);
        return [{ key, name: g.displayName || g.fullName, doors, window: groupKeyWindow(key, g, state) }];
      }
      const d = inService(key.deviceId);
      return d ? [{ key, name: d.displayName || d.fullName, doors: [door(d)], window: ekeyWindow(key, state) }] : [];
    });
}

export type MyActivityRow = { id: number; at: number; name: string; operationType: string; summary: string; deviceId: number | null; deviceName: string | null };

/** The caller's own activity (as actor or target), newest first, from the company's log. */
export async function myActivity(db: LogDb, auth: Auth, page: number, pageSize: number): Promise<{ rows: MyActivityRow[]; total: number; page: number; pageSize: number }> {
  assertMobile(auth);
  const a = schema.activityLogs;
  const t = schema.activityTypes;
  const d = schema.devices;
  const where = and(eq(a.companyId, auth.company.id), or(eq(a.targetUserId, auth.user.id), eq(a.createdByUserId, auth.user.id)));
  const [rows, [total]] = await db.batch([
    db
      .select({ id: a.id, at: a.activityTimestamp, name: t.name, operationType: a.operationType, summary: a.summary, deviceId: a.targetDeviceId, deviceName: d.fullName })
      .from(a)
      .innerJoin(t, eq(t.id, a.activityTypeId))
      .leftJoin(d, and(eq(d.id, a.targetDeviceId), eq(d.companyId, a.companyId)))
      .where(where)
      .orderBy(desc(a.activityTimestamp), desc(a.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    countWhere(db, a, where),
  ]);
  return { rows, total: total?.n ?? 0, page, pageSize };
}

/**
 * Unlock attempts the phone reports ('Unlocked With App' / 'App Access Denied'), stored once per event id:
 * `app/<user id>/<event id>`, a namespace no board id can take (board ids are device ids). A door of
 * another company, or a key that is not the caller's, is rejected and nothing of it is written. A one-time
 * key that opened is marked used, as when a gateway reports it.
 */
export async function reportAppEvents(env: CompanyLogEnv, db: Db, auth: Auth, input: AppEventsInput, now: number) {
  assertMobile(auth);
  const deviceIds = [...new Set(input.events.map((e) => e.deviceId))];
  const keyIds = [...new Set(input.events.flatMap((e) => (e.keyId ? [e.keyId] : [])))];
  const d = schema.devices;
  const k = schema.ekeyAssignments;
  const [devices, keys] = await Promise.all([
    db
      .select({ id: d.id, name: d.fullName })
      .from(d)
      .where(and(eq(d.companyId, auth.company.id), isNull(d.deletedAt), sql`${d.id} in (select value from json_each(${JSON.stringify(deviceIds)}))`)),
    db
      .select({ id: k.id, oneTime: sql<number>`${k.accessType} = 'one_time_access'` })
      .from(k)
      .where(and(eq(k.companyId, auth.company.id), eq(k.userId, auth.user.id), sql`${k.id} in (select value from json_each(${JSON.stringify(keyIds)}))`)),
  ]);
  const deviceById = new Map(devices.map((x) => [x.id, x]));
  const keyById = new Map(keys.map((x) => [x.id, x]));
  const rejected: { eventId: string; reason: string }[] = [];
  const rows: ActivityEntry[] = [];
  const spent = new Map<number, number>();
  const seen = new Set<string>();
  for (const e of input.events) {
    const device = deviceById.get(e.deviceId);
    if (!device) {
      rejected.push({ eventId: e.eventId, reason: "unknown device" });
      continue;
    }
    if (e.keyId && !keyById.has(e.keyId)) {
      rejected.push({ eventId: e.eventId, reason: "unknown key" });
      continue;
    }
    if (seen.has(e.eventId)) continue;
    seen.add(e.eventId);
    if (e.allowed && e.keyId && keyById.get(e.keyId)?.oneTime && !spent.has(e.keyId)) spent.set(e.keyId, e.at);
    rows.push({
      companyId: auth.company.id,
      name: e.allowed ? "Unlocked With App" : "App Access Denied",
      operationType: "App",
      createdByUserId: auth.user.id,
      targetUserId: auth.user.id,
      targetDeviceId: device.id,
      summary: `${e.allowed ? "Unlocked with the app" : "App access denied"} at ${device.name}${e.reason && !e.allowed ? `: ${e.reason}` : ""}`,
      details: { reason: e.reason ?? null, keyId: e.keyId ?? null, credentialId: e.credentialId ?? null, installationId: auth.session.installationId, receivedAt: now },
      eventId: `app/${auth.user.id}/${e.eventId}`,
      at: e.at,
    });
  }
  if (rows.length === 0) return { accepted: 0, duplicates: input.events.length - rejected.length, rejected };
  // The log first (an event id the company's log holds is a duplicate); a report that fails after it is sent
  // again, and spending a one-time key is harmless to repeat.
  const accepted = await ingestActivity(env, db, rows, "App", now);
  if (spent.size > 0)
    await db.batch(
      [...spent].map(([id, at]) =>
        db
          .update(k)
          .set({ usedAt: at, updatedAt: now })
          .where(and(eq(k.id, id), eq(k.companyId, auth.company.id), eq(k.accessType, "one_time_access"), isNull(k.usedAt))),
      ) as unknown as [never, ...never[]],
    );
  return { accepted, duplicates: input.events.length - rejected.length - accepted, rejected };
}
