/**
 * Real SMTP servers on 127.0.0.1 for the mail tests (run in Node, beside workerd), one per test file
 * that asks. No STARTTLS: smtp-server's built-in certificate has expired. Each accepts AUTH
 * console/local-only (the demo mailer's), refuses recipients at refused.example with 550, and keeps
 * what it received; a tiny HTTP endpoint on 127.0.0.1 lists (GET) and forgets (DELETE) the
 * messages, since the tests run inside workerd and cannot share memory with this process.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { TestProject } from "vitest/node";

export type ReceivedMail = { from: string; to: string[]; user: string | null; raw: string };

declare module "vitest" {
  export interface ProvidedContext {
    /** POST here for an SMTP server of the test file's own: `{ smtpPort, inboxUrl }` (tests/workers/mail-server.ts). */
    mailServers: string;
  }
}

const listen = (server: { listen: (port: number, host: string, cb: () => void) => unknown }, get: () => AddressInfo) =>
  new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve(get().port)));

/** One SMTP server and its inbox endpoint. */
async function startMailServer() {
  let received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onAuth(auth, _session, callback) {
      if (auth.username === "console" && auth.password === "local-only") callback(null, { user: auth.username });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith("@refused.example")) callback(Object.assign(new Error("No such mailbox here"), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: (session.user as string | undefined) ?? null,
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback(null);
      });
    },
  });
  // A client that drops its connection (a test's Worker ending mid-session) is not this server's failure.
  smtp.on("error", () => {});
  const inbox: Server = createServer((req, res) => {
    if (req.method === "DELETE") received = [];
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(received));
  });
  const smtpPort = await listen(smtp, () => smtp.server.address() as AddressInfo);
  const inboxPort = await listen(inbox, () => inbox.address() as AddressInfo);
  return {
    address: { smtpPort, inboxUrl: `http://127.0.0.1:${inboxPort}/messages` },
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => inbox.close(() => resolve()));
    },
  };
}

/**
 * Test files run two at a time: each gets a server of its own, so none reads or clears another's
 * mail. They ask through a small HTTP endpoint, since they run inside workerd.
 */
export default async function setup(project: TestProject) {
  const started: Awaited<ReturnType<typeof startMailServer>>[] = [];
  const factory: Server = createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    startMailServer().then(
      (server) => {
        started.push(server);
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify(server.address));
      },
      (e: Error) => res.writeHead(500).end(e.message),
    );
  });
  const factoryPort = await listen(factory, () => factory.address() as AddressInfo);
  project.provide("mailServers", `http://127.0.0.1:${factoryPort}/`);
  return async () => {
    await Promise.all(started.map((s) => s.close()));
    await new Promise<void>((resolve) => factory.close(() => resolve()));
  };
}
