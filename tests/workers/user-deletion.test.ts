import { and, eq, inArray, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, DEMO, fromEveryLog, login, schema, workerNow } from "./helpers";

/**
 * Deleting a user leaves nothing of theirs that could let them in or reach them (keys, sessions and
 * their passkey challenges, phone authenticators, reset links, sign-in codes, authenticator app and
 * recovery codes, console passkeys, alert recipient rows),
 * and the activity log keeps its history.
 */
const ACME = 3;
let acme: string;

beforeAll(async () => {
  acme = await login("acme");
});

describe("DELETE /user/deleteUser", () => {
  it("removes everything that could authorize the user, in the same change, and keeps the history", async () => {
    const s = schema;
    const [victim] = await db()
      .select({ id: s.users.id, email: s.users.email })
      .from(s.users)
      .where(and(eq(s.users.companyId, ACME), eq(s.users.isSuperAdmin, false), ne(s.users.email, DEMO.auditor.userName), ne(s.users.email, DEMO.acme.userName)))
      .limit(1);
    const id = victim.id;
    const now = workerNow();
    const later = now + 3_600_000;
    await db().batch([
      db().insert(s.sessions).values({ id: "victim-session", userId: id, companyId: ACME, kind: "mobile", lastSeenAt: now, expiresAt: later }),
      db().insert(s.webauthnChallenges).values({ challenge: "victim-challenge", sessionId: "victim-session", purpose: "get", expiresAt: later }),
      db().insert(s.phoneAuthenticators).values({ companyId: ACME, userId: id, installationId: "victim-phone", credentialId: "cred-1", publicKey: "pk", algorithm: -7 }),
      db().insert(s.passwordResetTokens).values({ id: "victim-reset", userId: id, companyId: ACME, expiresAt: later }),
      db().insert(s.twoFactorCodes).values({ userId: id, companyId: ACME, codeHash: "h", expiresAt: later }),
      db().insert(s.ekeyAssignments).values({ companyId: ACME, userId: id, isGroup: true, groupId: 1, accessType: "full_access" }),
      db().insert(s.ekeyAssignments).values({ companyId: ACME, userId: id, isGroup: false, deviceId: 1, accessType: "full_access" }),
      db().insert(s.alertRecipients).values({ alertId: 1, companyId: ACME, userId: id, email: victim.email }),
      db().insert(s.authenticatorApps).values({ userId: id, companyId: ACME, secret: "sealed", confirmedAt: now }),
      db().insert(s.authenticatorRecoveryCodes).values({ userId: id, codeHash: "h" }),
      db().insert(s.consolePasskeys).values({ userId: id, companyId: ACME, credentialId: "victim-passkey", publicKey: "pk", name: "Laptop" }),
      db().insert(s.passkeyChallenges).values({ userId: id, purpose: "sign-in", challenge: "victim-passkey-challenge", expiresAt: later }),
    ]);
    const historyOf = () => fromEveryLog((log) => log.select({ id: s.activityLogs.id }).from(s.activityLogs).where(eq(s.activityLogs.targetUserId, id)));
    const history = await historyOf();

    const r = await api(acme, "DELETE", `/api/admin/user/deleteUser?id=${id}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);

    expect((await db().query.users.findFirst({ where: eq(s.users.id, id) }))!.deletedAt).not.toBeNull();
    expect(await db().select().from(s.sessions).where(eq(s.sessions.userId, id))).toEqual([]);
    expect(await db().select().from(s.webauthnChallenges).where(eq(s.webauthnChallenges.sessionId, "victim-session"))).toEqual([]);
    expect(await db().select().from(s.phoneAuthenticators).where(eq(s.phoneAuthenticators.userId, id))).toEqual([]);
    expect(await db().select().from(s.passwordResetTokens).where(eq(s.passwordResetTokens.userId, id))).toEqual([]);
    expect(await db().select().from(s.twoFactorCodes).where(eq(s.twoFactorCodes.userId, id))).toEqual([]);
    expect(await db().select().from(s.ekeyAssignments).where(eq(s.ekeyAssignments.userId, id))).toEqual([]);
    expect(await db().select().from(s.alertRecipients).where(eq(s.alertRecipients.userId, id))).toEqual([]);
    expect(await db().select().from(s.authenticatorApps).where(eq(s.authenticatorApps.userId, id))).toEqual([]);
    expect(await db().select().from(s.authenticatorRecoveryCodes).where(eq(s.authenticatorRecoveryCodes.userId, id))).toEqual([]);
    expect(await db().select().from(s.consolePasskeys).where(eq(s.consolePasskeys.userId, id))).toEqual([]);
    expect(await db().select().from(s.passkeyChallenges).where(eq(s.passkeyChallenges.userId, id))).toEqual([]);
    // History stays: every earlier entry about the user, plus the removal itself.
    const after = await historyOf();
    expect(after.length).toBe(history.length + 1);
    expect(
      await fromEveryLog((log) =>
        log
          .select()
          .from(s.activityLogs)
          .where(inArray(s.activityLogs.id, history.map((h) => h.id).concat(0))),
      ),
    ).toHaveLength(history.length);
  });
});
