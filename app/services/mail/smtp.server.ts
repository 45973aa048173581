/**
 * A minimal SMTP client (RFC 5321) on Workers TCP sockets: one message per connection, which
 * keeps a failure confined to its own message. Port 465 is implicit TLS; elsewhere STARTTLS is
 * used whenever the server offers it, and only a loopback server may be spoken to in clear text.
 */
import { connect } from "cloudflare:sockets";
import { dotStuff } from "./message.server";

export type SmtpServer = { host: string; port: number; user: string; password: string; heloName: string; timeoutMs?: number };
export type Envelope = { from: string; to: string; data: string };

export class SmtpError extends Error {
  constructor(
    message: string,
    /** The server refused this very message (recipient or content): retrying cannot help. */
    readonly permanent = false,
  ) {
    super(message);
    this.name = "SmtpError";
  }
}

type Reply = { code: number; lines: string[] };

const CRLF = "\r\n";
const encoder = new TextEncoder();
const base64 = (text: string) => btoa(String.fromCharCode(...encoder.encode(text)));
const isLoopback = (host: string) => /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/i.test(host);

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SmtpError(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** One SMTP dialogue over a socket; reads replies line by line, multi-line replies included. */
class Conversation {
  private reader!: ReadableStreamDefaultReader<Uint8Array>;
  private writer!: WritableStreamDefaultWriter<Uint8Array>;
  private decoder = new TextDecoder();
  private buffer = "";
  /** What the dialogue was doing, to name it when the runtime throws a bare error (e.g. an untrusted certificate). */
  stage = "the connection";

  constructor(
    private socket: Socket,
    private timeoutMs: number,
  ) {
    this.attach();
  }

  private attach() {
    this.reader = this.socket.readable.getReader();
    this.writer = this.socket.writable.getWriter();
  }

  get secure() {
    return this.socket.secureTransport === "on";
  }

  async upgrade() {
    // startTls() needs the plain streams released; whatever the server sent after 220 is discarded (RFC 3207 §4.2).
    this.reader.releaseLock();
    this.writer.releaseLock();
    this.socket = this.socket.startTls();
    this.buffer = "";
    this.decoder = new TextDecoder();
    this.attach();
    this.stage = "the TLS handshake";
    await withTimeout(this.socket.opened, this.timeoutMs, this.stage);
  }

  private async readLine(what: string): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf("\n");
      if (end >= 0) {
        const line = this.buffer.slice(0, end).replace(/\r$/, "");
        this.buffer = this.buffer.slice(end + 1);
        return line;
      }
      const { value, done } = await withTimeout(this.reader.read(), this.timeoutMs, what);
      if (done) throw new SmtpError(`the server closed the connection while we waited for ${what}`);
      if (this.buffer.length > 65_536) throw new SmtpError(`the reply to ${what} has no line end`); // not an SMTP server
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  async reply(what: string): Promise<Reply> {
    this.stage = what;
    const lines: string[] = [];
    for (;;) {
      const line = await this.readLine(what);
      const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!m) throw new SmtpError(`malformed reply to ${what}: ${JSON.stringify(line.slice(0, 200))}`);
      lines.push(m[3]);
      if (m[2] !== "-") return { code: Number(m[1]), lines };
    }
  }

  async write(text: string, what: string) {
    this.stage = what;
    await withTimeout(this.writer.write(encoder.encode(text)), this.timeoutMs, `sending ${what}`);
  }

  /** Sends a command (or data) and checks the reply code; `what` names it in errors, never the payload. */
  async command(text: string | null, expect: number[], what: string, permanentOn5xx = false): Promise<Reply> {
    if (text !== null) await this.write(text + CRLF, what);
    const reply = await this.reply(what);
    if (!expect.includes(reply.code)) {
      const permanent = permanentOn5xx && reply.code >= 500;
      throw new SmtpError(`${what} refused: ${reply.code} ${reply.lines.join(" ").slice(0, 300)}`, permanent);
    }
    return reply;
  }

  close() {
    this.socket.close().catch(() => {});
  }
}

/** EHLO (HELO for very old servers); returns the extensions keyed by upper-case keyword. */
async function hello(c: Conversation, name: string, what = "EHLO"): Promise<Map<string, string>> {
  await c.write(`EHLO ${name}${CRLF}`, what);
  const reply = await c.reply(what);
  if (reply.code !== 250) {
    await c.command(`HELO ${name}`, [250], "HELO");
    return new Map();
  }
  return new Map(
    reply.lines.slice(1).map((l) => {
      const [keyword, ...params] = l.trim().split(/\s+/);
      return [keyword.toUpperCase(), params.join(" ").toUpperCase()] as const;
    }),
  );
}

async function authenticate(c: Conversation, extensions: Map<string, string>, server: SmtpServer) {
  const mechanisms = (extensions.get("AUTH") ?? "").split(" ");
  if (mechanisms.includes("PLAIN")) {
    await c.command(`AUTH PLAIN ${base64(`\0${server.user}\0${server.password}`)}`, [235], "AUTH PLAIN");
  } else if (mechanisms.includes("LOGIN")) {
    await c.command("AUTH LOGIN", [334], "AUTH LOGIN");
    await c.command(base64(server.user), [334], "AUTH LOGIN user name");
    await c.command(base64(server.password), [235], "AUTH LOGIN password");
  }
  // A server that offers no mechanism we speak may still relay for us (by address); MAIL FROM will tell.
}

/** Delivers one message; `data` is the full RFC 5322 message with CRLF line ends. */
export async function sendMail(server: SmtpServer, envelope: Envelope): Promise<void> {
  const timeoutMs = server.timeoutMs ?? 15_000;
  const failure = (stage: string, e: unknown) =>
    e instanceof SmtpError ? e : new SmtpError(`${server.host}:${server.port} failed during ${stage}: ${e instanceof Error ? e.message : e}`);
  let socket: Socket;
  try {
    socket = connect({ hostname: server.host, port: server.port }, { secureTransport: server.port === 465 ? "on" : "starttls", allowHalfOpen: false });
  } catch (e) {
    throw failure("the connection", e); // e.g. a port the platform does not allow
  }
  const c = new Conversation(socket, timeoutMs);
  try {
    await withTimeout(socket.opened, timeoutMs, `a connection to ${server.host}:${server.port}`);
    await c.command(null, [220], "the greeting");
    let extensions = await hello(c, server.heloName);
    if (!c.secure) {
      if (extensions.has("STARTTLS")) {
        await c.command("STARTTLS", [220], "STARTTLS");
        await c.upgrade();
        // workerd reports a failed handshake (e.g. an untrusted certificate) only at the first read or write.
        extensions = await hello(c, server.heloName, "EHLO over TLS");
      } else if (!isLoopback(server.host)) {
        throw new SmtpError(`${server.host} does not offer STARTTLS; mail and credentials are not sent in clear text`);
      }
    }
    if (server.user) await authenticate(c, extensions, server);
    await c.command(`MAIL FROM:<${envelope.from}>`, [250], "MAIL FROM");
    await c.command(`RCPT TO:<${envelope.to}>`, [250, 251], "RCPT TO", true);
    await c.command("DATA", [354], "DATA");
    const data = envelope.data.endsWith(CRLF) ? envelope.data : envelope.data + CRLF;
    await c.command(`${dotStuff(data)}.`, [250], "the message", true);
    // The message is accepted; a failed QUIT must not turn it into a retry (and a duplicate).
    await c.command("QUIT", [221], "QUIT").catch(() => {});
  } catch (e) {
    throw failure(c.stage, e);
  } finally {
    c.close();
  }
}
