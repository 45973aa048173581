/**
 * The webhook envelope and each event type's `data`, as zod schemas: the published JSON Schemas
 * (the OpenAPI document's components, `/api/webhook-schemas.json`) are generated from them, and the
 * tests check sent payloads against them. Version 1 of the envelope; a breaking change is a new version.
 *
 * Events are thin: they name what changed by id, with what the activity recorded (summary, reason);
 * a receiver reads the current record through the admin API when it needs more.
 */
import { z } from "zod";
import { ALARM_KINDS, ALARM_STATES } from "~/schemas/door-alarms";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "~/schemas/webhooks";

export const ENVELOPE_VERSION = 1;

const ref = z.object({ id: z.number().int() });
const actor = ref.nullable().describe("the user who made the change; null for the platform or a device");
const device = ref.describe("the door (device)");
const user = ref.describe("the person");

const access = z.object({
  device,
  user: ref.nullable().describe("the person whose credential was read; null when unknown"),
  credential: z.object({ type: z.string(), id: z.string() }).nullable(),
  key: z.object({ id: z.string().nullable(), kind: z.enum(["ekey", "group"]).nullable() }).nullable(),
  reason: z.string().nullable().describe("a sentence for people"),
  summary: z.string(),
});

const door = z.object({ device, summary: z.string() });
const userChange = z.object({ user, actor, summary: z.string() });
const keyChange = z.object({
  user,
  device: ref.nullable().describe("the door, for a key to one door"),
  device_group: ref.nullable().describe("the group, for a key to a group of doors"),
  actor,
  summary: z.string(),
});
const firmware = z.object({ device, version: z.string().nullable(), error: z.string().nullable(), summary: z.string() });

/** A lockdown or evacuation started or ended (decision 0083); an automatic end has no actor. */
const lockdown = z.object({
  actor,
  mode: z.enum(["lockdown", "evacuation"]).nullable(),
  automatic: z.boolean().describe("ended by its duration, not by a person"),
  summary: z.string(),
});

/**
 * A door alarm raised, acknowledged or cleared (decision 0076): one event per new alarm, never per repeat
 * folded into it. `kind` and `state` are the admin API's alarm `type` and `state` (GET alarm/getAlarms).
 */
const doorAlarm = z.object({
  alarm: ref.describe("the alarm (GET alarm/getAlarms)"),
  device: z.object({ id: z.number().int().nullable(), name: z.string().nullable() }).describe("the door, with its name when the alarm was written"),
  kind: z.enum(ALARM_KINDS).nullable().describe("heldOpen: the door stood open past its threshold; forced: it opened without an unlock"),
  state: z.enum(ALARM_STATES).describe("the alarm's state after this event (an acknowledgement of a door already closed clears it at once)"),
  acknowledged_by: ref.nullable().describe("the user who acknowledged it; null while nobody has"),
  note: z.string().nullable().describe("what the person who acknowledged it found; null before that"),
  summary: z.string(),
});

/** Each type's `data`. */
export const EVENT_DATA = {
  "access.granted": access,
  "access.denied": access.extend({
    reason_code: z.string().nullable().describe("the stable denial code (gateway/PROTOCOL.md, Denial codes); act on this, not on `reason`"),
  }),
  "door.opened": door,
  "door.closed": door,
  "door.forced_open": door,
  "door.held_open": door,
  "door_alarm.raised": doorAlarm,
  "door_alarm.acknowledged": doorAlarm,
  "door_alarm.cleared": doorAlarm,
  "device.low_battery": door.extend({ percent: z.number().nullable() }),
  "device.online": door.describe("the board connected to a gateway (it was offline on every gateway)"),
  "device.offline": door.describe("the board is connected to no gateway: it disconnected, or its gateway restarted without it"),
  "device.clock_drift": door
    .extend({ drift_ms: z.number().nullable().describe("the board's clock minus its gateway's; beyond 30,000 either way it is flagged") })
    .describe("the board's clock was found more than 30 s off its gateway's (sent when the flag is raised, not while it stays)"),
  "device.zone_data_outdated": door
    .extend({ tzdata: z.string().nullable().describe("the tz database version the board decides with"), core_tzdata: z.string().nullable().describe("the core's") })
    .describe("the board decides with time-zone data older than the core's: around a changed DST rule it opens at the wrong hour"),
  "firmware.installed": firmware,
  "firmware.failed": firmware,
  "user.created": userChange,
  "user.changed": userChange,
  "user.deactivated": userChange,
  "user.deleted": userChange,
  "key.assigned": keyChange,
  "key.changed": keyChange,
  "key.removed": keyChange,
  "alert.fired": z.object({
    alert: z.object({ id: z.number().int(), name: z.string() }),
    activity: z.object({ id: z.number(), name: z.string().describe("the activity catalogue's name"), summary: z.string(), occurred_at: z.string() }),
    user: ref.nullable(),
    device: ref.nullable(),
  }),
  "lockdown.started": lockdown,
  "lockdown.ended": lockdown,
} as const satisfies Record<WebhookEventType, z.ZodTypeAny>;

/** The envelope every delivery's body is, for one type. */
export function envelopeSchema(type: WebhookEventType) {
  return z.object({
    version: z.literal(ENVELOPE_VERSION).describe("the envelope's version"),
    type: z.literal(type),
    id: z.string().describe("the event's id, also the webhook-id header: the same on every retry and replay, so receivers de-duplicate by it"),
    occurred_at: z.string().describe("when it happened, ISO 8601 UTC"),
    company: z.object({ id: z.number().int() }),
    data: EVENT_DATA[type],
  });
}

export const ENVELOPES = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [t, envelopeSchema(t)])) as { [T in WebhookEventType]: ReturnType<typeof envelopeSchema> };

export type Envelope = { version: number; type: WebhookEventType; id: string; occurred_at: string; company: { id: number }; data: unknown };

/** The body sent for a stored event. */
export function envelopeOf(e: { id: string; type: string; occurredAt: number; companyId: number; dataJson: string }): Envelope {
  return {
    version: ENVELOPE_VERSION,
    type: e.type as WebhookEventType,
    id: e.id,
    occurred_at: new Date(e.occurredAt).toISOString(),
    company: { id: e.companyId },
    data: JSON.parse(e.dataJson),
  };
}
