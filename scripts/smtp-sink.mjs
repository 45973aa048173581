/**
 * A local SMTP sink for the demo mailer (`npm start`) and the end-to-end servers: a real SMTP server
 * on 127.0.0.1 that accepts every message, prints who it is for and what it says, and keeps it.
 *
 *   node scripts/smtp-sink.mjs [smtpPort=2525] [inboxPort]
 *
 * With an inbox port, http://127.0.0.1:<inboxPort>/messages lists what arrived as JSON (GET) and
 * forgets it (DELETE), so a test can read the mail a flow sent. Any credentials are accepted (the
 * demo mailer's are console / local-only); STARTTLS is off because smtp-server's built-in
 * certificate has expired, and the console only speaks clear text to a loopback server.
 */
import { createServer } from "node:http";
import { SMTPServer } from "smtp-server";

const smtpPort = Number(process.argv[2] ?? 2525);
const inboxPort = process.argv[3] === undefined ? null : Number(process.argv[3]);

/** Quoted-printable to text (the console's bodies are UTF-8 quoted-printable). */
const fromQuotedPrintable = (s) =>
  Buffer.from(
    s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))),
    "latin1",
  ).toString("utf8");

/** RFC 2047 encoded words (`=?UTF-8?B?…?=` / `?Q?`) to text. */
const fromEncodedWords = (s) =>
  s.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc, text) =>
    enc.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : fromQuotedPrintable(text.replace(/_/g, " ")),
  );

/** The subject and the text of a raw message. */
function readMessage(raw) {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, " ");
  const body = split < 0 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name) => head.match(new RegExp(`^${name}:\\s*(.*)$`, "im"))?.[1] ?? "";
  const qp = /quoted-printable/i.test(header("Content-Transfer-Encoding"));
  return { subject: fromEncodedWords(header("Subject")), text: (qp ? fromQuotedPrintable(body) : body).replace(/\r\n/g, "\n").trim() };
}

let received = [];

const smtp = new SMTPServer({
  logger: false,
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
  onData(stream, session, callback) {
    const chunks = [];
    stream.on("data", (c) => chunks.push(c));
    stream.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const mail = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), ...readMessage(raw) };
      received.push(mail);
      console.log(`\n--- mail to ${mail.to.join(", ")}: ${mail.subject}\n${mail.text}\n---`);
      callback(null);
    });
  },
});
smtp.on("error", (e) => console.error(`smtp sink: ${e.message}`));
smtp.server.once("error", (e) => {
  console.error(`smtp sink: cannot listen on 127.0.0.1:${smtpPort}: ${e.message}`);
  process.exit(1);
});
smtp.listen(smtpPort, "127.0.0.1", () => console.log(`Mail sink: smtp://127.0.0.1:${smtpPort} (mail is printed here, never sent on)`));

if (inboxPort !== null) {
  createServer((req, res) => {
    if (req.method === "DELETE") received = [];
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(received));
  }).listen(inboxPort, "127.0.0.1");
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
