/**
 * A webhook endpoint in domain names (decision 0078): the console's form posts it, the admin API's
 * endpoint file reads its wire names into the same fields, the service takes it. Whether plain http is
 * allowed depends on the environment, so the service checks that.
 */
import { z } from "zod";
import { checkbox } from "./flag";

/** Every event type an endpoint can subscribe to, in the order the form lists them. */
export const WEBHOOK_EVENT_TYPES = [
  "access.granted",
  "access.denied",
  "door.opened",
  "door.closed",
  "door.forced_open",
  "door.held_open",
  "door_alarm.raised",
  "door_alarm.acknowledged",
  "door_alarm.cleared",
  "device.low_battery",
  "device.online",
  "device.offline",
  "device.clock_drift",
  "device.zone_data_outdated",
  "firmware.installed",
  "firmware.failed",
  "user.created",
  "user.changed",
  "user.deactivated",
  "user.deleted",
  "key.assigned",
  "key.changed",
  "key.removed",
  "alert.fired",
  "lockdown.started",
  "lockdown.ended",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The groups the endpoint form lists event types under, in its order. */
export const WEBHOOK_EVENT_GROUPS = ["access", "door", "door_alarm", "device", "user", "key", "alert", "lockdown"] as const;

/** A type's group: the part of its name before the dot, with firmware listed among devices. */
export const webhookEventGroup = (type: WebhookEventType): string => (type.startsWith("firmware.") ? "device" : type.slice(0, type.indexOf(".")));

export const WEBHOOK_MSG = {
  url: "URL must be an absolute http or https address",
  httpsOnly: "URL must use https",
  urlTooLong: "URL is too long (at most 500 characters)",
  descriptionTooLong: "Description is too long (at most 200 characters)",
  eventTypes: "Choose at least one event type",
  unknownEventType: "Unknown event type",
  created: "Webhook endpoint created",
  modified: "Webhook endpoint saved",
  deleted: "Webhook endpoint deleted",
  rotated: "Signing secret rotated",
  replayed: "Deliveries queued again",
  notFound: "Webhook endpoint not found",
  deliveryNotFound: "Delivery not found",
  range: "The range's end must be after its start",
  rangeTooLong: "A replay covers at most 30 days",
  tooMany: "A company has at most 20 webhook endpoints",
  dateTime: "Enter a date and time",
} as const;

const url = z
  .string({ required_error: WEBHOOK_MSG.url, invalid_type_error: WEBHOOK_MSG.url })
  .trim()
  .max(500, WEBHOOK_MSG.urlTooLong)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password;
    } catch {
      return false;
    }
  }, WEBHOOK_MSG.url);

/** A list from a JSON array, a form's repeated field (one value arrives as a string) or nothing. */
const eventTypes = z.preprocess(
  (v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.enum(WEBHOOK_EVENT_TYPES, { errorMap: () => ({ message: WEBHOOK_MSG.unknownEventType }) })).min(1, WEBHOOK_MSG.eventTypes),
);

export const webhookEndpointSchema = z.object({
  url,
  description: z.string({ invalid_type_error: WEBHOOK_MSG.descriptionTooLong }).trim().max(200, WEBHOOK_MSG.descriptionTooLong).default(""),
  eventTypes,
  enabled: checkbox(true),
});
export type WebhookEndpointInput = z.output<typeof webhookEndpointSchema>;

/** A replay: every delivery to the endpoint of events that occurred in [from, to) (epoch ms). */
export const webhookReplayRangeSchema = z
  .object({ from: z.coerce.number().int().nonnegative(), to: z.coerce.number().int().positive() })
  .refine((r) => r.to > r.from, { message: WEBHOOK_MSG.range, path: ["to"] })
  .refine((r) => r.to - r.from <= 30 * 86_400_000, { message: WEBHOOK_MSG.rangeTooLong, path: ["to"] });

/** The console's replay dialog: local date and times (`YYYY-MM-DDTHH:MM`) in the company's zone; the page turns them into instants. */
const localDateTime = z.string({ required_error: WEBHOOK_MSG.dateTime }).regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, WEBHOOK_MSG.dateTime);
export const webhookReplayFormSchema = z.object({ from: localDateTime, to: localDateTime });

/** The delivery log's status filter. */
export const WEBHOOK_DELIVERY_FILTER = ["pending", "delivered", "dead"] as const;
export const deliveryStateOf = (v: string | null) => WEBHOOK_DELIVERY_FILTER.find((s) => s === v);
