/**
 * Staged firmware rollouts (decision 0094): list, start, pause, resume and abort. Like the other
 * firmware calls they need the `company` module; changes need its modify right.
 */
import { z } from "zod";
import { listPage } from "~/schemas/firmware";
import { hasThreshold, rolloutIdSchema, ROLLOUT_MSG, startRolloutFields } from "~/schemas/firmware-rollouts";
import * as rollouts from "~/services/firmware-rollouts.server";
import { endpoint } from "../define.server";
import { wireObject, withWireFields } from "../wire-fields.server";

const tag = "Firmware";
const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

/** The start form's fields in the admin API's names. */
const START_WIRE = {
  releaseId: "release_id",
  waves: "waves",
  canary: "canary_device_ids",
  soakMinutes: "soak_minutes",
  onlineMinutes: "online_minutes",
  failPercent: "fail_percent",
  failCount: "fail_count",
} as const;

const waveShape = z.object({
  wave: z.number().describe("1 is the canary wave"),
  percent: z.number().describe("cumulative share of the device type's boards"),
  open: z.boolean(),
  boards: z.number(),
  installed: z.number(),
  failed: z.number().describe("failed installs and boards not back online, since the last resume"),
});

const rolloutShape = z.object({
  id: z.number(),
  release_id: z.number(),
  version: z.string(),
  device_type: z.string(),
  previous_release_id: z.number().nullable(),
  previous_version: z.string().nullable().describe("what boards outside open waves keep, and what an abort offers again"),
  state: z.enum(["running", "paused", "aborted", "completed"]),
  wave: z.number().describe("the highest open wave, 1 being the canary"),
  waves: z.array(waveShape),
  canary_device_ids: z.array(z.number()),
  soak_minutes: z.number(),
  online_minutes: z.number(),
  fail_percent: z.number().nullable(),
  fail_count: z.number().nullable(),
  paused_reason: z.string(),
  wave_started_at: z.string(),
  created_at: z.string(),
  ended_at: z.string().nullable(),
});

const toRecord = (x: rollouts.RolloutRow): z.infer<typeof rolloutShape> => ({
  id: x.id,
  release_id: x.releaseId,
  version: x.version,
  device_type: x.deviceType,
  previous_release_id: x.previousReleaseId,
  previous_version: x.previousVersion,
  state: x.state,
  wave: x.wave + 1,
  waves: x.health.map((w) => ({ wave: w.wave + 1, percent: w.percent, open: w.open, boards: w.boards, installed: w.installed, failed: w.failed })),
  canary_device_ids: x.canary,
  soak_minutes: x.soakMinutes,
  online_minutes: x.onlineMinutes,
  fail_percent: x.failPercent,
  fail_count: x.failCount,
  paused_reason: x.pausedReason,
  wave_started_at: iso(x.waveStartedAt)!,
  created_at: iso(x.createdAt)!,
  ended_at: iso(x.endedAt),
});

const idBody = rolloutIdSchema;
const control = (path: string, summary: string, message: string, run: typeof rollouts.pauseRollout) =>
  endpoint({
    method: "POST",
    path,
    tag,
    summary,
    auth: "token",
    permission: { modules: "company", action: "modify" },
    body: idBody,
    response: z.object({ message: z.string() }),
    async handler({ db, auth, body, now }) {
      await run(db, auth, body.id, now);
      return { message };
    },
  });

export const rolloutEndpoints = [
  endpoint({
    method: "POST",
    path: "/ota/getRollouts",
    tag,
    summary: "Staged firmware rollouts, newest first, each with its waves: boards, installs and failures (since the last resume).",
    auth: "token",
    permission: { modules: "company" },
    body: z.object({ page: listPage }),
    response: z.object({ payload: z.array(rolloutShape), total: z.number() }),
    async handler({ db, auth, body, now }) {
      const { rows, total } = await rollouts.listRollouts(db, auth, now, { page: body.page ?? 1 });
      return { payload: rows.map(toRecord), extra: { total } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/ota/startRollout",
    tag,
    summary:
      "Starts a staged rollout of a release to its device type ('Firmware Rollout Started'). `waves`: rising cumulative percentages ending at 100 (the first is the canary wave; default 5, 25, 100); `canary_device_ids`: boards added to the canary wave. Gateways offer the release only to boards of open waves; the others keep the type's active release. A wave opens once the previous one stayed healthy for `soak_minutes`; the rollout pauses itself ('Firmware Rollout Paused') when a wave's failures (failed installs, boards not back online within `online_minutes`) reach `fail_count` boards or `fail_percent` of the wave; after the last wave the release becomes active. 409 when the release is active or its type already has a running or paused rollout.",
    auth: "token",
    permission: { modules: "company", action: "modify" },
    body: wireObject(startRolloutFields, START_WIRE).refine(hasThreshold, { message: ROLLOUT_MSG.threshold, path: ["fail_count"] }),
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now }) {
      const payload = await withWireFields(START_WIRE, () => rollouts.startRollout(db, auth, body, now));
      return { message: ROLLOUT_MSG.started, payload };
    },
  }),
  control(
    "/ota/pauseRollout",
    "Pauses a running rollout ('Firmware Rollout Paused'): boards of open waves are offered nothing until it resumes. 409 unless running.",
    ROLLOUT_MSG.paused,
    rollouts.pauseRollout,
  ),
  control(
    "/ota/resumeRollout",
    "Resumes a paused rollout ('Firmware Rollout Resumed'): failures so far no longer count, and the current wave's healthy time starts again. 409 unless paused.",
    ROLLOUT_MSG.resumed,
    rollouts.resumeRollout,
  ),
  control(
    "/ota/abortRollout",
    "Ends a running or paused rollout ('Firmware Rollout Aborted'): every board of the type is offered the previous active release again, so boards that installed this one roll back. 409 when it has ended.",
    ROLLOUT_MSG.aborted,
    rollouts.abortRollout,
  ),
];
