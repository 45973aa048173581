/**
 * Builds an RFC 5322 text/plain message. Pure (no I/O), so it is unit-tested in Node.
 * The body is quoted-printable: 7-bit clean, so any relay accepts it without 8BITMIME.
 */

export type Mailbox = { name: string; address: string };

export type OutgoingMail = { from: Mailbox; to: string; subject: string; body: string; date: Date; messageId: string };

const CRLF = "\r\n";
const utf8 = new TextEncoder();

/** `Name <addr>` or a bare `addr`; the display name may be quoted. */
export function parseMailbox(value: string): Mailbox {
  const m = /^\s*(?:"?([^"<]*?)"?\s*)?<([^<>\s]+)>\s*$/.exec(value);
  return m ? { name: (m[1] ?? "").trim(), address: m[2] } : { name: "", address: value.trim() };
}

export class InvalidAddressError extends Error {}

/** Rejects what could break out of a header or an SMTP command. */
export function assertAddress(address: string): string {
  if (!/^[^\s<>()",;:\\@]+@[^\s<>()",;:\\@]+$/.test(address) || /[^\x21-\x7e]/.test(address)) {
    throw new InvalidAddressError(`invalid mail address: ${JSON.stringify(address)}`);
  }
  return address;
}

const isPrintableAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

/**
 * RFC 2047 B-encoding for a header value that is not plain ASCII. Encoded words stay within 75
 * characters and never split a UTF-8 sequence; they are folded onto continuation lines.
 */
export function encodeHeaderWord(text: string): string {
  const clean = text.replace(/[\r\n]+/g, " ");
  if (isPrintableAscii(clean)) return clean;
  // 39 bytes are 52 base64 chars; with "=?UTF-8?B?…?=" and "Subject: " a line stays under 76.
  const maxBytes = 39;
  const chunks: number[][] = [[]];
  for (const ch of clean) {
    const bytes = Array.from(utf8.encode(ch));
    if (chunks[chunks.length - 1].length + bytes.length > maxBytes) chunks.push([]);
    chunks[chunks.length - 1].push(...bytes);
  }
  return chunks.map((b) => `=?UTF-8?B?${btoa(String.fromCharCode(...b))}?=`).join(CRLF + " ");
}

function formatMailbox({ name, address }: Mailbox): string {
  if (!name) return address;
  const display = isPrintableAscii(name) && /[()<>[\]:;@\\,."]/.test(name) ? `"${name.replace(/["\\]/g, "\\$&")}"` : encodeHeaderWord(name);
  return `${display} <${address}>`;
}

/** RFC 5322 date in UTC, e.g. `Sat, 21 Nov 2026 14:15:22 +0000`. */
export const formatDate = (d: Date) => d.toUTCString().replace(/GMT$/, "+0000");

/** Quoted-printable (RFC 2045 §6.7) of UTF-8 text, CRLF line breaks, lines at most 76 characters. */
export function encodeQuotedPrintable(text: string): string {
  return normalizeNewlines(text)
    .split(CRLF)
    .map((line) => {
      const bytes = utf8.encode(line);
      let out = "";
      let width = 0;
      bytes.forEach((b, i) => {
        const last = i === bytes.length - 1;
        // Trailing space or tab must be encoded, or relays may strip it.
        const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
        const token = literal ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, "0")}`;
        if (width + token.length > (last ? 76 : 75)) {
          out += "=" + CRLF;
          width = 0;
        }
        out += token;
        width += token.length;
      });
      return out;
    })
    .join(CRLF);
}

export const normalizeNewlines = (text: string) => text.replace(/\r\n|\r|\n/g, CRLF);

/** SMTP transparency (RFC 5321 §4.5.2): a line starting with "." gets one more. */
export const dotStuff = (data: string) => data.replace(/(^|\r\n)\./g, "$1..");

export function buildMessage(mail: OutgoingMail): string {
  const headers = [
    `From: ${formatMailbox(mail.from)}`,
    `To: ${assertAddress(mail.to)}`,
    `Subject: ${encodeHeaderWord(mail.subject)}`,
    `Date: ${formatDate(mail.date)}`,
    `Message-ID: <${mail.messageId}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: quoted-printable",
  ];
  return headers.join(CRLF) + CRLF + CRLF + encodeQuotedPrintable(mail.body) + CRLF;
}
