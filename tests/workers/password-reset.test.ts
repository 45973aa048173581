/**
 * Password reset security (decision 0062): the company's mode (email, text plus email, admin approval),
 * the secondary action on suspicious resets, the identical refusal of unknown companies and e-mails,
 * mails in the company's language, and the text-message channel (limits, failures in the log, fail-closed)
 * against the run's real local SMS sink (scripts/sms-sink.mjs, started by vitest.workers.config.ts).
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { smsSender, SmsError } from "~/services/sms/sender.server";
import { sendText, TEXT_LIMIT } from "~/services/sms/texts.server";
import { api, auditsNamed, db, DEMO, login, resetThrottles, schema, workerNow, textsTo } from "./helpers";

afterEach(resetThrottles);

const FORGOT = "/api/admin/user/webForgotPassword";
const RESET = "/api/admin/user/webReSetPassword";
const SMS_ENV = env as unknown as { SMS_API_URL: string };
const { users: u, companySettings: cs, mailOutbox: mo } = schema;

const mailTo = (address: string) => db().select().from(mo).where(eq(mo.toAddress, address));
const linkIn = (body: string) => /\/resetPassword\/([A-Za-z0-9_-]+)/.exec(body)?.[1] ?? "";
const forgot = (userName: string, companyId = "ACME") => api(null, "POST", FORGOT, { companyId, userName });

let acme = 0;
let seq = 0;
/** A fresh ACME user with its own phone (unique in the shared sink), so each test reads only its own texts and mail. */
async function newUser(over: Partial<typeof u.$inferInsert> = {}) {
  seq++;
  const email = `reset-${seq}-${Date.now()}@acme.example`;
  const [row] = await db()
    .insert(u)
    .values({
      companyId: acme,
      firstName: "Rosa",
      lastName: `Reset${seq}`,
      displayName: `Rosa Reset${seq}`,
      email,
      phoneNumber: `+1555777${String(1000 + seq)}`,
      isSentinel: true,
      ...over,
    })
    .returning();
  return row;
}
const setMode = (values: Partial<typeof cs.$inferInsert>) => db().update(cs).set(values).where(eq(cs.companyId, acme));

beforeAll(async () => {
  acme = (await db().query.companies.findFirst({ where: eq(schema.companies.code, "ACME") }))!.id;
});

describe("forgot password, any mode", () => {
  it("answers an unknown company and an unknown e-mail identically: 400 'Invalid Company ID or Email'", async () => {
    const unknownCompany = await forgot(DEMO.acme.userName, "ZZZZ");
    const unknownEmail = await forgot("nobody@acme.example");
    expect(unknownCompany.status).toBe(400);
    expect(unknownCompany).toEqual(unknownEmail);
    expect(unknownCompany.body.message).toBe("Invalid Company ID or Email");
  });

  it("writes the reset mail in the company's language", async () => {
    await setMode({ passwordResetSecurity: "email", language: "es" });
    const user = await newUser();
    expect((await forgot(user.email)).status).toBe(200);
    const [mail] = await mailTo(user.email);
    expect(mail.subject).toBe("Restablezca su contraseña");
    expect(mail.body).toContain("Abra este enlace en la próxima hora");
    await setMode({ language: "en" });
  });
});

describe("mode email", () => {
  it("mails a link that resets the password alone, and texts nothing", async () => {
    await setMode({ passwordResetSecurity: "email" });
    const user = await newUser();
    const r = await forgot(user.email);
    expect(r).toMatchObject({ status: 200, body: { message: "A reset link has been sent to your email" } });
    const [mail] = await mailTo(user.email);
    expect(mail.subject).toBe("Reset your password");
    expect(await textsTo(user.phoneNumber)).toEqual([]);
    expect((await api(null, "POST", RESET, { uid: linkIn(mail.body), password: "Reset#Mail2026", confirmPassword: "Reset#Mail2026" })).status).toBe(200);
  });
});

describe("mode text (text plus email)", () => {
  it("texts a code to the user's phone; the mailed link needs it", async () => {
    await setMode({ passwordResetSecurity: "text", passwordResetSecondaryAction: "nothing" });
    const user = await newUser();
    const r = await forgot(user.email);
    expect(r).toMatchObject({ status: 200, body: { message: "A reset link has been sent to your email and a code to your phone" } });
    const [text] = await textsTo(user.phoneNumber);
    const code = /code is (\d{6})/.exec(text.body)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const [mail] = await mailTo(user.email);
    expect(mail.body).toContain("You will also need the code");
    const uid = linkIn(mail.body);
    const password = { password: "Reset#Text2026", confirmPassword: "Reset#Text2026" };
    const withoutCode = await api(null, "POST", RESET, { uid, ...password });
    expect(withoutCode).toMatchObject({ status: 400, body: { message: "The code is invalid or has expired" } });
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect((await api(null, "POST", RESET, { uid, ...password, code: wrong })).status).toBe(400);
    expect((await api(null, "POST", RESET, { uid, ...password, code })).status).toBe(200);
  });

  it("sends nothing when the text cannot go out, and writes 'Text Message Not Delivered'", async () => {
    await setMode({ passwordResetSecurity: "text", passwordResetSecondaryAction: "nothing" });
    // +999 is no country's: the provider (the sink) refuses it as a real one refuses an unusable number.
    const refused = await newUser({ phoneNumber: "+9995550001" });
    const noPhone = await newUser({ phoneNumber: "" });
    for (const user of [refused, noPhone]) {
      expect((await forgot(user.email)).status).toBe(200);
      expect(await mailTo(user.email)).toEqual([]);
    }
    const failures = await auditsNamed("Text Message Not Delivered");
    expect(failures.find((a) => a.targetUserId === refused.id)?.summary).toMatch(/refused the message \(400\)/);
    expect(failures.find((a) => a.targetUserId === noPhone.id)?.summary).toMatch(/no phone number/);
  });
});

describe("mode admin (super admin approval)", () => {
  it("records the request, shows the contact phone, and the super admin's approval mails the link", async () => {
    await setMode({ passwordResetSecurity: "admin", passwordResetPhone: "+15550109999" });
    const user = await newUser();
    const r = await forgot(user.email);
    expect(r).toMatchObject({ status: 200, body: { message: "Your request has been sent to your administrator for approval", payload: { contactPhone: "+15550109999" } } });
    expect(await mailTo(user.email)).toEqual([]);
    const admin = await login("acme");
    const shown = await api(admin, "GET", `/api/admin/user/getUserDetails?id=${user.id}`);
    expect(shown.body.payload.password_reset_requested_at).toEqual(expect.any(Number));
    expect((await auditsNamed("Password Reset Requested")).some((a) => a.targetUserId === user.id)).toBe(true);

    // The approval is a super admin's: the auditor is refused before its body is read.
    expect((await api(await login("auditor"), "POST", "/api/admin/user/sendResetLink", {})).status).toBe(403);
    expect((await api(admin, "POST", "/api/admin/user/sendResetLink", { userId: user.id })).status).toBe(200);
    const [mail] = await mailTo(user.email);
    expect(linkIn(mail.body)).not.toBe("");
    expect((await api(admin, "GET", `/api/admin/user/getUserDetails?id=${user.id}`)).body.payload.password_reset_requested_at).toBeNull();
  });
});

describe("suspicious resets run the secondary action", () => {
  const superAdminMail = async () => (await mailTo(DEMO.acme.userName)).filter((m) => m.subject.startsWith("Suspicious password reset"));

  it("flag: the fourth request within the window alerts the super admins and locks the account, once", async () => {
    await setMode({ passwordResetSecurity: "text", passwordResetSecondaryAction: "flag" });
    const before = (await superAdminMail()).length;
    const user = await newUser();
    for (let i = 0; i < 5; i++) expect((await forgot(user.email)).status).toBe(200);
    expect((await db().query.users.findFirst({ where: eq(u.id, user.id) }))!.isFlagged).toBe(true);
    expect((await superAdminMail()).length).toBe(before + 1);
    expect((await textsTo(user.phoneNumber)).length).toBe(3);
    // The lock is the existing flag: sign-in is refused with the spec's text until a super admin approves.
    await db()
      .update(u)
      .set({ passwordHash: (await db().query.users.findFirst({ where: eq(u.email, DEMO.acme.userName) }))!.passwordHash })
      .where(eq(u.id, user.id));
    const signIn = await api(null, "POST", "/api/admin/user/login", { companyId: "ACME", userName: user.email, password: DEMO.acme.password });
    expect(signIn).toMatchObject({ status: 401, body: { message: "account has been locked due to suspicious activity" } });
  });

  it("alert: five wrong codes spend the link and alert without locking", async () => {
    await setMode({ passwordResetSecurity: "text", passwordResetSecondaryAction: "alert" });
    const before = (await superAdminMail()).length;
    const user = await newUser();
    await forgot(user.email);
    const uid = linkIn((await mailTo(user.email))[0].body);
    const [text] = await textsTo(user.phoneNumber);
    const code = /code is (\d{6})/.exec(text.body)![1];
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 5; i++) expect((await api(null, "POST", RESET, { uid, password: "Reset#Alert2026", code: wrong })).status).toBe(400);
    // Spent: even the right code no longer opens it.
    expect((await api(null, "POST", RESET, { uid, password: "Reset#Alert2026", code })).body.message).toBe("This reset link is invalid or has expired");
    expect((await superAdminMail()).length).toBe(before + 1);
    expect((await db().query.users.findFirst({ where: eq(u.id, user.id) }))!.isFlagged).toBe(false);
  });

  it("wrong codes sent at once count one by one: twenty guesses in parallel leave the right code refused", async () => {
    await setMode({ passwordResetSecurity: "text", passwordResetSecondaryAction: "nothing" });
    const user = await newUser();
    await forgot(user.email);
    const uid = linkIn((await mailTo(user.email))[0].body);
    const code = /code is (\d{6})/.exec((await textsTo(user.phoneNumber))[0].body)![1];
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const answers = await Promise.all(guesses.map((g) => api(null, "POST", RESET, { uid, password: "Reset#Guess2026", code: g })));
    expect(answers.map((a) => a.status)).toEqual(guesses.map(() => 400));
    expect((await api(null, "POST", RESET, { uid, password: "Reset#Guess2026", code })).body.message).toBe("This reset link is invalid or has expired");
  });

  it("a password the rules refuse costs no code attempt", async () => {
    await setMode({ passwordResetSecurity: "text", passwordResetSecondaryAction: "nothing" });
    const user = await newUser();
    await forgot(user.email);
    const uid = linkIn((await mailTo(user.email))[0].body);
    const code = /code is (\d{6})/.exec((await textsTo(user.phoneNumber))[0].body)![1];
    for (let i = 0; i < 6; i++) expect((await api(null, "POST", RESET, { uid, password: "short", code })).status).toBe(400);
    expect((await api(null, "POST", RESET, { uid, password: "Reset#Rules2026", code })).status).toBe(200);
  });

  it("nothing: a request for a deactivated account is only recorded", async () => {
    await setMode({ passwordResetSecurity: "text", passwordResetSecondaryAction: "nothing" });
    const before = (await superAdminMail()).length;
    const user = await newUser({ isInactive: true });
    expect((await forgot(user.email)).status).toBe(200);
    expect(await textsTo(user.phoneNumber)).toEqual([]);
    expect((await superAdminMail()).length).toBe(before);
    const [entry] = await auditsNamed("Suspicious Password Reset", and(eq(schema.activityLogs.targetUserId, user.id)));
    expect(entry.summary).toBe("deactivated-account: nothing");
  });
});

describe("the text-message channel", () => {
  it("limits texts per user and per company, and logs what it held back", async () => {
    const sender = smsSender(env as never);
    const user = await newUser();
    const text = { companyId: acme, userId: user.id, to: user.phoneNumber, body: "limit test", purpose: "limit test" };
    const now = workerNow();
    const sent: boolean[] = [];
    for (let i = 0; i <= TEXT_LIMIT.perUser; i++) sent.push(await sendText(db(), sender, text, now));
    expect(sent).toEqual([...Array(TEXT_LIMIT.perUser).fill(true), false]);
    expect((await textsTo(user.phoneNumber)).length).toBe(TEXT_LIMIT.perUser);

    const other = await newUser();
    // The company has sent its hour's texts (the counter the sends above keep, set as if it had).
    await db()
      .update(schema.loginThrottles)
      .set({ failures: TEXT_LIMIT.perCompany })
      .where(eq(schema.loginThrottles.key, `sms:company:${acme}`));
    expect(await sendText(db(), sender, { ...text, userId: other.id, to: other.phoneNumber }, now)).toBe(false);
    expect(await textsTo(other.phoneNumber)).toEqual([]);
    const held = await auditsNamed("Text Message Not Delivered");
    expect(held.find((a) => a.targetUserId === user.id)?.summary).toMatch(/user's hourly text limit/);
    expect(held.find((a) => a.targetUserId === other.id)?.summary).toMatch(/company's hourly text limit/);
  });

  it("fails closed: no provider, or a clear-text one in production, is an error, never 'sent'", async () => {
    await expect(smsSender({}).send("+15557770000", "x")).rejects.toThrow(SmsError);
    await expect(
      smsSender({ ...SMS_ENV, SMS_ACCOUNT_SID: "ACtest", SMS_AUTH_TOKEN: "t", SMS_FROM: "+15550100000", ENVIRONMENT: "production" }).send("+15557770000", "x"),
    ).rejects.toThrow(/https in production/);
    await expect(smsSender({ SMS_API_URL: "http://127.0.0.1:9", SMS_ACCOUNT_SID: "ACtest", SMS_AUTH_TOKEN: "t", SMS_FROM: "+1555" }).send("+15557770000", "x")).rejects.toThrow(
      /could not be reached/,
    );
  });
});
