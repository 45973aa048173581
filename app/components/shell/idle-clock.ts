/**
 * Idle bookkeeping shared by every tab of the console: the last activity time lives in
 * localStorage, so activity in one tab keeps the others alive, and a BroadcastChannel tells
 * all tabs when one of them has signed the user out, so the logout happens once.
 */
const ACTIVITY_KEY = "console.lastActivity";
const CHANNEL = "console.session";

export type SessionMessage = { type: "logged-out" } | { type: "continued"; at: number };

export function readLastActivity(): number {
  const v = Number(localStorage.getItem(ACTIVITY_KEY));
  return Number.isFinite(v) && v > 0 ? v : Date.now();
}

export function writeLastActivity(at: number): void {
  localStorage.setItem(ACTIVITY_KEY, String(at));
}

export function openChannel(onMessage: (m: SessionMessage) => void): { post: (m: SessionMessage) => void; close: () => void } {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (e) => onMessage(e.data as SessionMessage);
  return { post: (m) => channel.postMessage(m), close: () => channel.close() };
}

/** Runs `fn` in exactly one tab: Web Locks elect the leader; without them, every tab may try (the server records one logout). */
export async function asLeader(fn: () => Promise<void>): Promise<void> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (!locks) return fn();
  await locks.request("console.idle-logout", { ifAvailable: true }, async (lock) => {
    if (lock) await fn();
  });
}
