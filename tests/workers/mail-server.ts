import { inject } from "vitest";

/**
 * A real SMTP server of this test file's own (started in Node by tests/workers/smtp-global-setup.ts):
 * its port, for the mailer settings, and its inbox, which lists (GET) and forgets (DELETE) what it
 * received. Files running at the same time never see each other's mail.
 */
export async function ownMailServer(): Promise<{ smtpPort: number; inboxUrl: string }> {
  const res = await fetch(inject("mailServers"), { method: "POST" });
  if (!res.ok) throw new Error(`no mail server for this file: ${res.status}`);
  return (await res.json()) as { smtpPort: number; inboxUrl: string };
}

// Independent of the code under test: RFC 2047 B-words and quoted-printable, decoded by hand.
const bytesToText = (bytes: number[]) => new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
/** A received message's headers, decoded subject and decoded body. */
export function parseMail(raw: string) {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n(?=[ \t])/g, "");
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, "mi").exec(head)?.[1] ?? "";
  const decodeWords = (v: string) =>
    v.replace(/\?=\s+=\?/g, "?==?").replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => bytesToText(Array.from(atob(b64), (c) => c.charCodeAt(0))));
  const qp = raw.slice(split + 4).replace(/=\r\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < qp.length; i++) {
    if (qp[i] === "=") {
      bytes.push(parseInt(qp.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(qp.charCodeAt(i));
  }
  return { head, header, subject: decodeWords(header("Subject")), body: bytesToText(bytes) };
}
