import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { api, db, DEMO, login, resetThrottles, schema, textsTo } from "./helpers";

/** Where sign-in codes go: the user's own choice of e-mail or text message (decision 0062, addendum). */
const SET = "/api/admin/user/setTwoFactorChannel";
const LOGIN = "/api/admin/user/login";
const TFA = "/api/admin/user/twoFactorAuthenticate";
const u = schema.users;
const vera = async () => (await db().query.users.findFirst({ where: eq(u.email, "var@reseller.example") }))!;
const setUser = async (values: Partial<typeof u.$inferInsert>) => db().update(u).set(values).where(eq(u.email, "var@reseller.example"));
const require2fa = (on: boolean) => db().update(schema.companySettings).set({ require2fa: on }).where(eq(schema.companySettings.companyId, 2));
const lastMailedCode = async () =>
  (await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, "var@reseller.example"))).at(-1)!.body.match(/\b(\d{6})\b/)![1];
const signInWith = (code: string) => api(null, "POST", TFA, { companyId: "RSL1", userName: DEMO.var.userName, code });

afterEach(async () => {
  await require2fa(false);
  await resetThrottles();
});

describe("the sign-in code channel", () => {
  it("is saved for the caller's own account, shown in the account details, and text needs a phone a text can reach", async () => {
    const { id, phoneNumber } = await vera();
    const token = await login("var");
    expect(await api(token, "PUT", SET, { two_factor_channel: "fax" })).toMatchObject({ status: 400, body: { errors: { two_factor_channel: ["Choose e-mail or text message"] } } });
    await setUser({ phoneNumber: "" });
    const noPhone = await api(token, "PUT", SET, { two_factor_channel: "text" });
    expect(noPhone).toMatchObject({ status: 400, body: { errors: { two_factor_channel: [expect.stringContaining("international form")] } } });
    expect((await vera()).twoFactorChannel).toBe("email");
    await setUser({ phoneNumber });
    expect(await api(token, "PUT", SET, { two_factor_channel: "Text" })).toMatchObject({ status: 200, body: { message: "Sign-in code preference saved" } });
    expect((await api(token, "GET", `/api/admin/user/getUserDetails?id=${id}`)).body.payload.two_factor_channel).toBe("text");
    expect((await api(token, "PUT", SET, { two_factor_channel: "email" })).status).toBe(200);
    expect((await vera()).twoFactorChannel).toBe("email");
  });

  it("sends the code by text at sign-in when chosen, says where it went, and mails it when the text cannot go out", async () => {
    const { phoneNumber } = await vera();
    await setUser({ twoFactorChannel: "text" });
    await require2fa(true);
    try {
      const before = (await textsTo(phoneNumber)).length;
      const texted = await api(null, "POST", LOGIN, DEMO.var);
      expect(texted).toMatchObject({ status: 402, body: { payload: { channel: "text", preferredChannel: "text", sentTo: `•••• ${phoneNumber.slice(-4)}` } } });
      const sent = (await textsTo(phoneNumber)).slice(before);
      expect(sent).toHaveLength(1);
      expect((await signInWith(/code is (\d{6})/.exec(sent[0].body)![1])).status).toBe(200);
      // The provider refuses the number (the sink refuses +999…): the code is mailed, and the answer says so.
      await setUser({ phoneNumber: "+9995550100" });
      const mailed = await api(null, "POST", LOGIN, DEMO.var);
      expect(mailed).toMatchObject({ status: 402, body: { payload: { channel: "email", preferredChannel: "text", sentTo: "v•••@reseller.example" } } });
      expect((await signInWith(await lastMailedCode())).status).toBe(200);
      // Asked again by e-mail while a code waits: a new code, mailed.
      expect((await api(null, "POST", LOGIN, DEMO.var)).status).toBe(402);
      const again = await api(null, "POST", "/api/admin/user/sendTwoFactorCodeByEmail", { companyId: "RSL1", userName: DEMO.var.userName });
      expect(again).toMatchObject({ status: 200, body: { message: "A new code has been sent to your email", payload: { channel: "email", sentTo: "v•••@reseller.example" } } });
      expect((await signInWith(await lastMailedCode())).status).toBe(200);
    } finally {
      await setUser({ twoFactorChannel: "email", phoneNumber });
    }
  });
});
