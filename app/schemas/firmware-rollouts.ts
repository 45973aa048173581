/**
 * Staged firmware rollouts (issue 33, decision 0094), in domain names: the console's form posts them, the
 * admin API's endpoint file reads its wire names into them. Waves are cumulative percentages of the
 * release's device type's boards, ascending and ending at 100; the first is the canary wave.
 */
import { z } from "zod";

export const ROLLOUT_MAX_WAVES = 10;
export const ROLLOUT_MAX_CANARY = 100;
export const ROLLOUT_DEFAULTS = { waves: "5, 25, 100", soakMinutes: 60, onlineMinutes: 15, failPercent: 5, failCount: 3 } as const;

export const ROLLOUT_MSG = {
  release: "Choose a firmware release",
  waves: `Waves are up to ${ROLLOUT_MAX_WAVES} rising percentages ending at 100, such as 5, 25, 100`,
  canary: `Canary boards are up to ${ROLLOUT_MAX_CANARY} device ids, separated by commas`,
  soak: "Healthy time is a whole number of minutes from 0 to 10080 (one week)",
  online: "Back-online time is a whole number of minutes from 1 to 1440",
  failPercent: "Failure share is a whole percentage from 1 to 100",
  failCount: "Failed boards is a whole number from 1 to 100000",
  threshold: "Set at least one failure threshold: a share of the wave or a number of boards",
  noType: "This release names no device type, so it cannot be rolled out in waves",
  isActive: "This release is already the active one of its device type",
  open: "A rollout of this device type is already running or paused: finish or abort it first",
  canaryType: "Canary boards must be configured boards of the release's device type",
  started: "Rollout started",
  paused: "Rollout paused",
  resumed: "Rollout resumed",
  aborted: "Rollout aborted: boards are offered the previous release",
  notFound: "Rollout not found",
  notRunning: "Only a running rollout can be paused",
  notPaused: "Only a paused rollout can be resumed",
  ended: "This rollout has already ended",
} as const;

/** A list given as an array or as text separated by commas or spaces. */
const listOf = (raw: unknown) => (Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(/[\s,]+/).filter(Boolean) : raw);

const minutes = (msg: string, min: number, max: number) => z.coerce.number({ invalid_type_error: msg, required_error: msg }).int(msg).min(min, msg).max(max, msg);

/** A database id; any other value gets `msg`. */
const idOf = (msg: string) => z.coerce.number({ invalid_type_error: msg, required_error: msg }).int(msg).positive(msg).max(Number.MAX_SAFE_INTEGER, msg);

/** Empty means "not set" (a form's blank field); otherwise a whole number in range. */
const optionalThreshold = (msg: string, max: number) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number({ invalid_type_error: msg }).int(msg).min(1, msg).max(max, msg).optional());

export const startRolloutFields = z.object({
  releaseId: idOf(ROLLOUT_MSG.release),
  waves: z.preprocess(
    listOf,
    z
      .array(z.coerce.number({ invalid_type_error: ROLLOUT_MSG.waves }).int(ROLLOUT_MSG.waves).min(1, ROLLOUT_MSG.waves).max(100, ROLLOUT_MSG.waves), {
        invalid_type_error: ROLLOUT_MSG.waves,
        required_error: ROLLOUT_MSG.waves,
      })
      .min(1, ROLLOUT_MSG.waves)
      .max(ROLLOUT_MAX_WAVES, ROLLOUT_MSG.waves)
      .refine((w) => w.at(-1) === 100 && w.every((p, i) => i === 0 || p > w[i - 1]), ROLLOUT_MSG.waves),
  ),
  canary: z.preprocess(
    (v) => listOf(v ?? []),
    z
      .array(z.coerce.number({ invalid_type_error: ROLLOUT_MSG.canary }).int(ROLLOUT_MSG.canary).positive(ROLLOUT_MSG.canary).max(Number.MAX_SAFE_INTEGER, ROLLOUT_MSG.canary), {
        invalid_type_error: ROLLOUT_MSG.canary,
      })
      .max(ROLLOUT_MAX_CANARY, ROLLOUT_MSG.canary),
  ),
  soakMinutes: minutes(ROLLOUT_MSG.soak, 0, 10_080).default(ROLLOUT_DEFAULTS.soakMinutes),
  onlineMinutes: minutes(ROLLOUT_MSG.online, 1, 1440).default(ROLLOUT_DEFAULTS.onlineMinutes),
  failPercent: optionalThreshold(ROLLOUT_MSG.failPercent, 100),
  failCount: optionalThreshold(ROLLOUT_MSG.failCount, 100_000),
});

/** At least one threshold, or a rollout would never stop itself. */
export const hasThreshold = (x: { failPercent?: number; failCount?: number }) => x.failPercent !== undefined || x.failCount !== undefined;

export const startRolloutSchema = startRolloutFields.refine(hasThreshold, { message: ROLLOUT_MSG.threshold, path: ["failCount"] });
export type StartRolloutInput = z.infer<typeof startRolloutSchema>;

export const rolloutIdSchema = z.object({ id: idOf(ROLLOUT_MSG.notFound) });
