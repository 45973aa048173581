/**
 * Mail delivery end to end: requests queue mail, the Worker delivers it over cloudflare:sockets to
 * a real SMTP server on 127.0.0.1 (tests/workers/smtp-global-setup.ts), failures stay queued.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq, isNull } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { background } from "../../worker-background";
import { drainOutbox, MAX_ATTEMPTS } from "../../app/services/mail/outbox.server";
import { OUTBOX_KEPT_MS } from "../../app/services/sign-in-purge.server";
import { ownMailServer, parseMail as parse } from "./mail-server";
import type { ReceivedMail } from "./smtp-global-setup";
import { api, db, DEMO, schema, workerNow } from "./helpers";

const { smtpPort, inboxUrl } = await ownMailServer();
const outbox = schema.mailOutbox;

const inbox = async (): Promise<ReceivedMail[]> => (await fetch(inboxUrl)).json();

async function waitForMail(count = 1): Promise<ReceivedMail[]> {
  for (let i = 0; i < 100; i++) {
    const mail = await inbox();
    if (mail.length >= count) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the SMTP server received nothing");
}

/** The Worker's cron entry point, as the trigger in wrangler.toml calls it. */
async function runCron() {
  const ctx = createExecutionContext();
  await background.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function setMailerPort(port: number) {
  await db().update(schema.mailerConfigs).set({ hostName: "127.0.0.1", port }).where(isNull(schema.mailerConfigs.companyId));
}

async function companyId(code: string) {
  return (await db().query.companies.findFirst({ where: eq(schema.companies.code, code) }))!.id;
}

beforeAll(() => setMailerPort(smtpPort));

beforeEach(async () => {
  await db().delete(outbox);
  await fetch(inboxUrl, { method: "DELETE" });
});

describe("mail delivery", () => {
  it("sends the sign-in code right after a 2FA login, and the code signs in", async () => {
    const acme = await companyId("ACME");
    await db().update(schema.companySettings).set({ require2fa: true }).where(eq(schema.companySettings.companyId, acme));
    try {
      expect((await api(null, "POST", "/api/admin/user/login", DEMO.acme)).status).toBe(402);
      const [mail] = await waitForMail();
      expect(mail.to).toEqual([DEMO.acme.userName]);
      expect(mail.from).toBe("no-reply@keyless.example");
      expect(mail.user).toBe("console"); // signed in with the mailer's credentials
      const { header, subject, body } = parse(mail.raw);
      expect(subject).toBe("Your sign-in code");
      expect(header("To")).toBe(DEMO.acme.userName);
      expect(header("From")).toBe("Keyless Access <no-reply@keyless.example>");
      expect(header("Date")).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
      expect(header("Message-ID")).toMatch(/^<[0-9a-f-]{36}@keyless\.example>$/);
      expect(header("MIME-Version")).toBe("1.0");
      expect(header("Content-Type")).toBe("text/plain; charset=utf-8");
      const code = /\b(\d{6})\b/.exec(body)![1];
      const ok = await api(null, "POST", "/api/admin/user/twoFactorAuthenticate", { companyId: "ACME", userName: DEMO.acme.userName, code });
      expect(ok.status).toBe(200);
      // The server took the mail before the outbox row is marked sent: wait for the mark.
      await vi.waitFor(async () => expect((await db().select().from(outbox))[0].sentAt).toEqual(expect.any(Number)), { timeout: 10_000 });
      const [row] = await db().select().from(outbox);
      expect(row).toMatchObject({ attempts: 1, lastError: null });
    } finally {
      await db().update(schema.companySettings).set({ require2fa: false }).where(eq(schema.companySettings.companyId, acme));
    }
  });

  it("sends the reset link of a forgotten password", async () => {
    const r = await api(null, "POST", "/api/admin/user/webForgotPassword", { companyId: "BETA", userName: DEMO.beta.userName });
    expect(r.status).toBe(200);
    const [mail] = await waitForMail();
    expect(mail.to).toEqual([DEMO.beta.userName]);
    const { subject, body } = parse(mail.raw);
    expect(subject).toBe("Reset your password");
    expect(body).toMatch(/https:\/\/console\.test\/resetPassword\/[A-Za-z0-9_-]{20,}/);
  });

  it("keeps refused mail unsent with the server's answer, and stops retrying a refused recipient", async () => {
    await db()
      .insert(outbox)
      .values({ companyId: await companyId("ACME"), toAddress: "nobody@refused.example", subject: "Hello", body: "Hi" });
    await runCron();
    const [row] = await db().select().from(outbox);
    expect(row.sentAt).toBeNull();
    expect(row.lastError).toMatch(/RCPT TO refused: 550/);
    expect(row.attempts).toBe(MAX_ATTEMPTS); // a 5xx for the recipient will not change on a retry
    expect(await inbox()).toEqual([]);
  });

  it("retries a failed delivery with a backoff; the company's own mailer comes before the default", async () => {
    const acme = await companyId("ACME");
    await db().insert(schema.mailerConfigs).values({ companyId: acme, hostName: "127.0.0.1", port: smtpPort, userName: "console", userPassword: "wrong" });
    const queuedAt = workerNow();
    await db().insert(outbox).values({ companyId: acme, toAddress: "admin@acme.example", subject: "Hello", body: "Hi", createdAt: queuedAt });
    expect(await drainOutbox(env, { now: queuedAt })).toEqual({ sent: 0, failed: 1 });
    let [row] = await db().select().from(outbox);
    expect(row).toMatchObject({ attempts: 1, sentAt: null });
    expect(row.lastError).toMatch(/AUTH PLAIN refused: 535/);
    expect(await drainOutbox(env, { now: queuedAt + 30_000 })).toEqual({ sent: 0, failed: 0 }); // not due yet
    await db().delete(schema.mailerConfigs).where(eq(schema.mailerConfigs.companyId, acme));
    expect(await drainOutbox(env, { now: queuedAt + 61_000 })).toEqual({ sent: 1, failed: 0 });
    [row] = await db().select().from(outbox);
    expect(row).toMatchObject({ attempts: 2, lastError: null });
    expect((await inbox()).map((m) => m.to)).toEqual([["admin@acme.example"]]);
  });

  it("leaves a row another drain has claimed and is still sending, even when its retry is due", async () => {
    const acme = await companyId("ACME");
    const queuedAt = workerNow() - 3_600_000;
    // Claimed an instant ago by a drain that is still talking to the SMTP server: attempts 1, no sentAt.
    await db()
      .insert(outbox)
      .values({ companyId: acme, toAddress: "admin@acme.example", subject: "In flight", body: "Hi", createdAt: queuedAt, attempts: 1, claimedUntil: queuedAt + 3_700_000 });
    expect(await drainOutbox(env, { now: queuedAt + 3_600_000 })).toEqual({ sent: 0, failed: 0 });
    expect(await inbox()).toEqual([]);
    // The lease runs out (the claiming drain died mid-send): the row is retried, once.
    expect(await drainOutbox(env, { now: queuedAt + 3_700_001 })).toEqual({ sent: 1, failed: 0 });
    expect(await drainOutbox(env, { now: queuedAt + 3_800_000 })).toEqual({ sent: 0, failed: 0 });
    expect((await waitForMail()).map((m) => m.to)).toEqual([["admin@acme.example"]]);
  });

  it("counts an unreachable server as a failed attempt", async () => {
    await setMailerPort(1); // nothing listens there
    try {
      await db()
        .insert(outbox)
        .values({ companyId: await companyId("ACME"), toAddress: "admin@acme.example", subject: "Hello", body: "Hi" });
      await runCron();
      const [row] = await db().select().from(outbox);
      expect(row).toMatchObject({ attempts: 1, sentAt: null });
      expect(row.lastError).toMatch(/^127\.0\.0\.1:1 failed during the connection: /);
    } finally {
      await setMailerPort(smtpPort);
    }
  });

  it("encodes a non-ASCII subject and body, long lines and leading dots so they arrive intact", async () => {
    const subject = "Código de acceso — señal ✓ 日本語のテキストはここにあります、長い件名";
    const body = ["Hola, aquí está tu código: 123456 ✓", ".una línea que empieza con punto", ".", "x".repeat(200), "espacio al final   ", "fin"].join("\n");
    await db()
      .insert(outbox)
      .values({ companyId: await companyId("ACME"), toAddress: "admin@acme.example", subject, body });
    await runCron();
    const [mail] = await waitForMail();
    const parsed = parse(mail.raw);
    expect(parsed.subject).toBe(subject);
    expect(parsed.body).toBe(body.replace(/\n/g, "\r\n") + "\r\n");
    expect(parsed.header("Content-Transfer-Encoding")).toBe("quoted-printable");
    expect(mail.raw).not.toMatch(/[^\r]\n/); // CRLF only
    // eslint-disable-next-line no-control-regex -- any byte outside 7-bit ASCII
    expect(mail.raw).not.toMatch(/[^\x00-\x7f]/); // 7-bit on the wire
    for (const line of mail.raw.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);
  });
});

describe("secrets in the outbox", () => {
  it("a delivered reset link and sign-in code are not kept in mail_outbox", async () => {
    const r = await api(null, "POST", "/api/admin/user/webForgotPassword", { companyId: "BETA", userName: DEMO.beta.userName }, { "CF-Connecting-IP": "192.0.2.201" });
    expect(r.status).toBe(200);
    const [mail] = await waitForMail();
    const token = /\/resetPassword\/([A-Za-z0-9_-]{20,})/.exec(parse(mail.raw).body)![1];
    // The drain that sent it records the delivery after the server's answer: wait for that write.
    await expect.poll(async () => (await db().select().from(outbox))[0]?.sentAt ?? null, { timeout: 10_000 }).not.toBeNull();
    const rows = await db().select().from(outbox);
    expect(rows).toHaveLength(1);
    expect(rows[0].sentAt).toEqual(expect.any(Number));
    expect(rows[0].body).not.toContain(token);
    expect(rows[0].body).toContain("/resetPassword/[removed after delivery]");
    // The link itself still works: only the copy in the outbox is gone.
    const reset = await api(null, "POST", "/api/admin/user/webReSetPassword", { uid: token, password: DEMO.beta.password, confirmPassword: DEMO.beta.password });
    expect(reset.status).toBe(200);
  });

  it("undelivered mail loses its secrets once they have expired", async () => {
    const acme = await companyId("ACME");
    await setMailerPort(1); // nothing listens there
    try {
      const old = workerNow() - 2 * 3600_000; // the cron prunes by the Worker's clock
      await db()
        .insert(outbox)
        .values([
          {
            companyId: acme,
            toAddress: "admin@acme.example",
            subject: "Reset your password",
            body: "Open https://console.test/resetPassword/SECRETtoken_123456789 now",
            createdAt: old,
          },
          { companyId: acme, toAddress: "admin@acme.example", subject: "Your sign-in code", body: "Your sign-in code is 654321. It is valid for 5 minutes.", createdAt: old },
          { companyId: acme, toAddress: "admin@acme.example", subject: "Fresh", body: "Open https://console.test/resetPassword/FRESHtoken_123456789 now", createdAt: workerNow() },
        ]);
      await runCron();
      const bodies = (await db().select().from(outbox).orderBy(outbox.id)).map((o) => o.body);
      expect(bodies[0]).not.toContain("SECRETtoken");
      expect(bodies[1]).not.toContain("654321");
      expect(bodies[2]).toContain("FRESHtoken"); // still needed for its retries
    } finally {
      await setMailerPort(smtpPort);
    }
  });
});

describe("outbox retention", () => {
  it("the cron deletes mail and texts settled a month ago, and keeps what is pending or recent", async () => {
    const acme = await companyId("ACME");
    const admin = (await db().query.users.findFirst({ where: eq(schema.users.companyId, acme) }))!.id;
    await setMailerPort(1); // nothing listens: the pending rows below stay pending through the cron's drain
    try {
      const old = workerNow() - OUTBOX_KEPT_MS - 60_000;
      const recent = workerNow() - OUTBOX_KEPT_MS + 3600_000;
      const mail = (subject: string, createdAt: number, done: { sentAt?: number; attempts?: number } = {}) => ({
        companyId: acme,
        toAddress: "admin@acme.example",
        subject,
        body: "-",
        createdAt,
        ...done,
      });
      await db()
        .insert(outbox)
        .values([
          mail("old sent", old, { sentAt: old }),
          mail("old given up", old, { attempts: MAX_ATTEMPTS }),
          mail("old pending", old, { attempts: 2 }),
          mail("recent sent", recent, { sentAt: recent }),
        ]);
      const text = (key: string, createdAt: number, claimedAt: number | null) => ({
        companyId: acme,
        userId: admin,
        body: "-",
        purpose: "alert",
        dedupeKey: key,
        createdAt,
        claimedAt,
        delivered: claimedAt ? true : null,
      });
      await db().delete(schema.textOutbox);
      await db()
        .insert(schema.textOutbox)
        .values([text("old tried", old, old), text("recent tried", recent, recent)]);
      await runCron();
      expect((await db().select().from(outbox)).map((m) => m.subject).sort()).toEqual(["old pending", "recent sent"]);
      expect((await db().select().from(schema.textOutbox)).map((t) => t.dedupeKey)).toEqual(["recent tried"]);
    } finally {
      await setMailerPort(smtpPort);
      await db().delete(schema.textOutbox);
    }
  });
});
