/**
 * Server-side sessions in D1. The client holds a random token (cookie for the console, bearer
 * token for the admin API); D1 stores only its SHA-256. Console sessions end after the idle
 * limit (the client's 9-minute idle plus its 60-second warning) and after an absolute lifetime.
 */
import { createCookie } from "@remix-run/cloudflare";
import { and, eq, lt, or } from "drizzle-orm";
import { schema, type Db } from "./db.server";
import { randomToken, sha256Hex } from "./tokens.server";

export const ABSOLUTE_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** Writes to last_seen_at are skipped when the previous one is this recent. */
const TOUCH_INTERVAL_MS = 15_000;

export type SessionKind = "web" | "api" | "mobile";

export function idleLimits(env: Env) {
  const idle = Number(env.IDLE_TIMEOUT_MS) || 540_000;
  const warning = Number(env.IDLE_WARNING_MS) || 60_000;
  return { idle, warning, serverLimit: idle + warning };
}

export const isProduction = (env: Env) => (env.ENVIRONMENT as string) === "production";

export function sessionCookie(env: Env) {
  return createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: isProduction(env),
  });
}

/** A support session's token (decision 0093), beside the user's own session, which it leaves untouched. */
export function supportCookie(env: Env) {
  return createCookie("__support", { httpOnly: true, sameSite: "lax", path: "/", secure: isProduction(env) });
}

/** A new sign-in's cookies: its session, and no support session left from whoever used the browser before. */
export async function signedInHeaders(env: Env, token: string): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie(env).serialize(token));
  headers.append("Set-Cookie", await supportCookie(env).serialize("", { maxAge: 0 }));
  return headers;
}

export async function readSupportToken(request: Request, env: Env): Promise<string | null> {
  const value = await supportCookie(env).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

export async function readSessionToken(request: Request, env: Env): Promise<string | null> {
  const value = await sessionCookie(env).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** Reads an admin API token: `Authorization: <token>` or `Authorization: Bearer <token>`. */
export function readBearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization")?.trim();
  if (!header) return null;
  const token = header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : header;
  return token || null;
}

export function clientIp(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? "local";
}

/** The values of a new session row and the token its client holds (a caller may batch the insert with other writes). */
export async function newSession(args: {
  userId: number;
  companyId: number;
  kind: SessionKind;
  request: Request;
  now: number;
  lifetimeMs?: number;
  installationId?: string;
  lang?: string;
}): Promise<{ token: string; id: string; values: typeof schema.sessions.$inferInsert }> {
  const token = randomToken();
  const id = await sha256Hex(token);
  const values = {
    id,
    userId: args.userId,
    companyId: args.companyId,
    kind: args.kind,
    createdAt: args.now,
    lastSeenAt: args.now,
    expiresAt: args.now + (args.lifetimeMs ?? ABSOLUTE_LIFETIME_MS),
    ip: clientIp(args.request),
    userAgent: (args.request.headers.get("User-Agent") ?? "").slice(0, 200),
    installationId: args.installationId ?? null,
    lang: args.lang ?? null,
  };
  return { token, id, values };
}

export async function createSession(db: Db, args: { userId: number; companyId: number; kind: SessionKind; request: Request; now: number }): Promise<{ token: string; id: string }> {
  const { token, id, values } = await newSession(args);
  await db.insert(schema.sessions).values(values);
  return { token, id };
}

export type SessionRow = typeof schema.sessions.$inferSelect;

/** The live session for a token, or null when unknown, expired or idle too long (then it is deleted). */
/** Past its lifetime, or (console sessions) untouched for longer than the idle limit. */
export function sessionIsOver(row: SessionRow, env: Env, now: number): boolean {
  return row.expiresAt <= now || (row.kind === "web" && now - row.lastSeenAt > idleLimits(env).serverLimit);
}

export async function touchSession(db: Db, row: SessionRow, now: number): Promise<void> {
  if (now - row.lastSeenAt < TOUCH_INTERVAL_MS) return;
  await db.update(schema.sessions).set({ lastSeenAt: now }).where(eq(schema.sessions.id, row.id));
}

/** Deletes the session; returns whether it still existed (so a logout is recorded once). */
export async function deleteSession(db: Db, id: string): Promise<boolean> {
  const gone = await db.delete(schema.sessions).where(eq(schema.sessions.id, id)).returning({ id: schema.sessions.id });
  return gone.length > 0;
}

/** How long a client may still report the sign-out of a session that ended (createActivityLogWithoutLogin). */
export const ENDED_SESSION_KEPT_MS = 30 * 86_400_000;

/**
 * Purges sessions past their lifetime or, for the console, past the idle limit (run by the cron); the
 * trigger of migration 0032 remembers them as ended. Ended ones past ENDED_SESSION_KEPT_MS go too.
 */
export async function deleteExpiredSessions(db: Db, env: Env, now: number): Promise<void> {
  const s = schema.sessions;
  const e = schema.endedSessions;
  await db.batch([
    db.delete(s).where(or(lt(s.expiresAt, now), and(eq(s.kind, "web"), lt(s.lastSeenAt, now - idleLimits(env).serverLimit)))),
    db.delete(e).where(lt(e.endedAt, now - ENDED_SESSION_KEPT_MS)),
  ]);
}
