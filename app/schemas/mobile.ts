import { z } from "zod";
import { languageField, loginSchema, twoFactorSchema } from "./auth";

/**
 * The phone app's calls (/api/mobile/*). Client-safe: the phone web app's sign-in form checks with the
 * same schema as the service.
 */
export const MOBILE_MSG = {
  updateRequired: "App update required, check the store",
  singleDevice: "You can only log in with a single device",
  installation: "installationId must be 8-128 characters: letters, digits, '.', '_', ':' or '-'",
  appVersion: "appVersion must be dotted numbers, e.g. 1.4.0",
} as const;

const installationId = z
  .string({ required_error: MOBILE_MSG.installation, invalid_type_error: MOBILE_MSG.installation })
  .trim()
  .regex(/^[A-Za-z0-9._:-]{8,128}$/, MOBILE_MSG.installation);
const appVersion = z
  .string({ required_error: MOBILE_MSG.appVersion, invalid_type_error: MOBILE_MSG.appVersion })
  .trim()
  .regex(/^\d{1,5}(\.\d{1,5}){0,3}$/, MOBILE_MSG.appVersion);
const phoneFields = { installationId, appVersion, language: languageField };

export const mobileLoginSchema = loginSchema.extend(phoneFields);
export type MobileLoginInput = z.infer<typeof mobileLoginSchema>;

export const mobileTwoFactorSchema = twoFactorSchema.extend(phoneFields);
export type MobileTwoFactorInput = z.infer<typeof mobileTwoFactorSchema>;

/** An epoch-millisecond number or an ISO-8601 instant. */
const instant = z.union([z.number().int().positive().max(8.64e15), z.string().max(40)]).transform((v, ctx) => {
  const ms = typeof v === "number" ? v : Date.parse(v);
  if (!Number.isFinite(ms)) ctx.addIssue({ code: "custom", message: "at must be epoch milliseconds or an ISO-8601 instant" });
  return ms;
});

/** One unlock attempt the phone made at a door, with what the door answered. */
export const appEventSchema = z.object({
  eventId: z.string({ required_error: "eventId is required" }).regex(/^[A-Za-z0-9._:-]{1,64}$/, "eventId must be 1-64 characters: letters, digits, '.', '_', ':' or '-'"),
  type: z.literal("unlock", { errorMap: () => ({ message: "type must be unlock" }) }),
  deviceId: z.coerce.number({ invalid_type_error: "deviceId must be a number" }).int().positive("deviceId must be a number"),
  keyId: z.coerce.number().int().positive().optional(),
  allowed: z.boolean({ required_error: "allowed is required", invalid_type_error: "allowed must be true or false" }),
  /** The door's reason code (gateway/PROTOCOL.md). */
  reason: z
    .string()
    .regex(/^[a-z_]{1,40}$/, "reason must be a reason code")
    .optional(),
  credentialId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/)
    .optional(),
  at: instant,
});
export const appEventsSchema = z.object({
  events: z.array(appEventSchema, { required_error: "events is required" }).min(1, "events must not be empty").max(100, "At most 100 events per call"),
});
export type AppEventsInput = z.infer<typeof appEventsSchema>;

export const myActivitySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

/** The one line a board (or the board simulator's verify mode) answers to a presented credential. */
export const boardAnswerSchema = z.object({
  allowed: z.boolean(),
  reason: z.string().regex(/^[a-z_]{1,40}$/),
});
export type BoardAnswer = z.infer<typeof boardAnswerSchema>;

/** Parses what was pasted from the board: its JSON line, or null when it is not one. */
export function parseBoardAnswer(text: string): BoardAnswer | null {
  try {
    const r = boardAnswerSchema.safeParse(JSON.parse(text.trim()));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
