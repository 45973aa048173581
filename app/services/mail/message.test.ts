import { describe, expect, it } from "vitest";
import { assertAddress, buildMessage, dotStuff, encodeHeaderWord, encodeQuotedPrintable, formatDate, parseMailbox } from "./message.server";

const decodeWord = (w: string) => Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(w)![1], "base64").toString("utf8");

describe("dotStuff", () => {
  it("doubles a dot that starts a line, and only there", () => {
    expect(dotStuff(".start\r\nmid.dle\r\n.\r\n..two\r\n")).toBe("..start\r\nmid.dle\r\n..\r\n...two\r\n");
    expect(dotStuff("no dots\r\n")).toBe("no dots\r\n");
  });
});

describe("encodeHeaderWord", () => {
  it("leaves printable ASCII alone", () => {
    expect(encodeHeaderWord("Your sign-in code")).toBe("Your sign-in code");
  });

  it("B-encodes UTF-8 in words of at most 75 characters without splitting a character", () => {
    const text = "Código ✓ 日本語のテキストはここにあります、とても長い件名です 😀";
    const words = encodeHeaderWord(text).split("\r\n ");
    expect(words.length).toBeGreaterThan(1);
    for (const w of words) expect(w.length).toBeLessThanOrEqual(75);
    expect(words.map(decodeWord).join("")).toBe(text); // each word decodes on its own
  });

  it("cannot be used to inject a header", () => {
    expect(encodeHeaderWord("Hi\r\nBcc: x@evil.example")).toBe("Hi Bcc: x@evil.example");
  });
});

describe("encodeQuotedPrintable", () => {
  it("escapes '=', non-ASCII and trailing spaces, and wraps with soft breaks", () => {
    expect(encodeQuotedPrintable("a=b ñ \nnext")).toBe("a=3Db =C3=B1=20\r\nnext");
    const long = encodeQuotedPrintable("y".repeat(200)).split("\r\n");
    expect(long.every((l) => l.length <= 76)).toBe(true);
    expect(long.join("").replace(/=/g, "")).toBe("y".repeat(200));
  });
});

describe("buildMessage", () => {
  it("writes the RFC 5322 headers and a CRLF body", () => {
    const msg = buildMessage({
      from: parseMailbox("Keyless Access <no-reply@keyless.example>"),
      to: "admin@acme.example",
      subject: "Señal",
      body: "line 1\nline 2",
      date: new Date(Date.UTC(2026, 10, 21, 14, 5, 9)),
      messageId: "id-1@keyless.example",
    });
    expect(msg).toBe(
      [
        "From: Keyless Access <no-reply@keyless.example>",
        "To: admin@acme.example",
        "Subject: =?UTF-8?B?U2XDsWFs?=",
        "Date: Sat, 21 Nov 2026 14:05:09 +0000",
        "Message-ID: <id-1@keyless.example>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
        "",
        "line 1",
        "line 2",
        "",
      ].join("\r\n"),
    );
  });

  it("refuses an address that could break out of a header or an SMTP command", () => {
    for (const bad of ["a@b.example>\r\nRCPT TO:<c@d.example", "a b@c.example", "no-at-sign", "ñ@acme.example"]) {
      expect(() => assertAddress(bad)).toThrow(/invalid mail address/);
    }
    expect(assertAddress("first.last+tag@sub.acme.example")).toBe("first.last+tag@sub.acme.example");
  });

  it("parses and formats mailboxes", () => {
    expect(parseMailbox('"Acme, Inc." <x@acme.example>')).toEqual({ name: "Acme, Inc.", address: "x@acme.example" });
    expect(parseMailbox("x@acme.example")).toEqual({ name: "", address: "x@acme.example" });
    expect(formatDate(new Date(0))).toBe("Thu, 01 Jan 1970 00:00:00 +0000");
  });
});
