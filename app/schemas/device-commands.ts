import { z } from "zod";

/**
 * Remote commands (decision 0034): the unlock form on /deviceDetails and the admin API share these.
 * Messages are English, translated in the `devices` namespace.
 */
export const COMMAND_MSG = {
  sent: "Unlock sent",
  notConfigured: "Only a configured device can be unlocked remotely",
  inProgress: "An unlock is already in progress for this device",
  deviceNotFound: "Device configuration could not be found",
  commandNotFound: "Command could not be found",
  /** The stored reason and summary of an unanswered command: what is known, not a guess that the board is offline. */
  expired: "the board did not answer within 60 s",
  /** The stored reason of an unlock withdrawn because a lockdown came to cover its door before a board took it. */
  lockdown: "withdrawn by a lockdown",
} as const;

const positiveId = (message: string) => z.coerce.number({ invalid_type_error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message);

/** The unlock confirmation posts the device id. */
export const unlockSchema = z.object({ id: positiveId(COMMAND_MSG.deviceNotFound) });

export const commandIdSchema = z.object({ commandId: positiveId(COMMAND_MSG.commandNotFound) });

/** How long a board has to answer an unlock: a stale one must never open a door later. */
export const UNLOCK_TTL_MS = 60_000;

/**
 * The unlock's time to answer for `env`: UNLOCK_TTL_MS, or `TEST_UNLOCK_TTL_MS` when `ENVIRONMENT` is
 * exactly "test" (as `TEST_CLOCK_OFFSET_MS`, docs/decisions/0018-test-clock.md), so the end-to-end
 * expiry test waits seconds instead of a real minute (docs/decisions/0069-gate-time-per-suite.md).
 */
export function unlockTtlFor(env: { ENVIRONMENT?: unknown; TEST_UNLOCK_TTL_MS?: unknown }): number {
  if (env.ENVIRONMENT !== "test") return UNLOCK_TTL_MS;
  const n = Number(env.TEST_UNLOCK_TTL_MS);
  return typeof env.TEST_UNLOCK_TTL_MS === "string" && Number.isSafeInteger(n) && n > 0 ? n : UNLOCK_TTL_MS;
}
