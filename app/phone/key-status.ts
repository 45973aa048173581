import type { AccessWindow, Core } from "~core";
import type { HeldKey } from "./phone-store";

export type KeyStatus = {
  /** The key's window is open at `now` (computed on the phone by the core, in the key's zone). */
  openNow: boolean;
  /** When an open key closes / a closed key next opens, epoch ms (null: not within five years). */
  until: number | null;
  nextOpen: number | null;
  /** The credential has expired (or there is none): the key cannot be presented until the app is online again. */
  needsRefresh: boolean;
  invalid: boolean;
};

/** "Open now?" and "next open" for a held key, by the same core the boards run. */
export function keyStatus(core: Core, key: HeldKey, now: number): KeyStatus {
  const needsRefresh = !key.credential || key.credential.expiresAt <= now;
  const window = key.window as unknown as AccessWindow;
  if (key.invalid || core.validate(window).length > 0) return { openNow: false, until: null, nextOpen: null, needsRefresh, invalid: true };
  const n = core.nextChange(window, now);
  return { openNow: n.open, until: n.open ? n.nextChange : null, nextOpen: n.open ? null : n.nextOpen, needsRefresh, invalid: false };
}

/** `2026-11-23 18:00` in the key's own zone (where the door is), through the core. */
export function localTime(core: Core, at: number, tz: string): string {
  return core.formatLocal(at, tz).slice(0, 16).replace("T", " ");
}
