import { z } from "zod";
import { isE164 } from "~/utils/phone";
import { checkbox } from "./flag";
import { nameText } from "./text";

/**
 * Visitor passes (issue 32, docs/decisions/0096-visitor-passes.md): what a host sends to invite a guest,
 * and the company's rules. Messages are English; the console translates them in `visitorPasses`.
 */
export const PASS_STATES = ["upcoming", "active", "used", "expired", "revoked"] as const;
export type PassState = (typeof PASS_STATES)[number];

export const PASS_MSG = {
  created: "Visitor pass created",
  revoked: "Visitor pass revoked",
  rulesSaved: "Visitor rules saved",
  notFound: "The provided visitor pass is invalid",
  contactRequired: "Give the guest's email or phone number",
  emailInvalid: "Email is invalid",
  phoneInvalid: "Enter the phone number with its country code, such as +34600123456",
  doorsRequired: "Choose the doors or a device group",
  doorsOrGroup: "Choose either doors or a device group, not both",
  doorNotAllowed: "Guests may not open one of these doors",
  dateInvalid: "Enter a date as YYYY-MM-DD",
  timeInvalid: "Enter a time as HH:mm",
  endBeforeStart: "The visit must end after it starts",
  inThePast: "The visit has already ended",
  tooLong: "The visit is longer than the company allows",
  hostInvalid: "The host must be an active user of the company",
  alreadyRevoked: "This pass is already revoked",
  linkInvalid: "This link is not valid, or the pass was withdrawn",
  linkExpired: "This pass has expired",
  otherPhone: "This pass is already open on another phone",
  maxDays: "Maximum visit must be 1 to 90 days",
  biometricRequired: "Visitor passes cannot open doors while the company requires biometrics",
} as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const ids = z.preprocess(
  (v) => (v == null || v === "" ? [] : Array.isArray(v) ? v : String(v).split(",")),
  z.array(z.coerce.number().int().positive()).max(200, PASS_MSG.doorsRequired),
);
const optionalId = z.preprocess((v) => (v === "" || v == null ? null : v), z.coerce.number().int().positive().nullable());
const optionalText = (max: number, message: string) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v), z.string().max(max, message).nullable().default(null));

export const passSchema = z
  .object({
    guestName: nameText("Guest name"),
    guestEmail: optionalText(254, PASS_MSG.emailInvalid).pipe(z.string().email(PASS_MSG.emailInvalid).nullable()),
    guestPhone: optionalText(20, PASS_MSG.phoneInvalid).refine((p) => p === null || isE164(p), PASS_MSG.phoneInvalid),
    /** Another host than the caller: only someone who may add users names one. */
    hostUserId: optionalId.default(null),
    deviceIds: ids.default([]),
    deviceGroupId: optionalId.default(null),
    oneEntry: checkbox(),
    /** The host is texted, as well as mailed, at the guest's first entry. */
    hostText: checkbox(),
    startDate: z.string({ required_error: PASS_MSG.dateInvalid }).regex(DATE, PASS_MSG.dateInvalid),
    endDate: z.string({ required_error: PASS_MSG.dateInvalid }).regex(DATE, PASS_MSG.dateInvalid),
    startTime: z.string({ required_error: PASS_MSG.timeInvalid }).regex(TIME, PASS_MSG.timeInvalid),
    endTime: z.string({ required_error: PASS_MSG.timeInvalid }).regex(TIME, PASS_MSG.timeInvalid),
    language: z.enum(["en", "es"]).default("en"),
  })
  .superRefine((v, ctx) => {
    if (!v.guestEmail && !v.guestPhone) ctx.addIssue({ code: "custom", path: ["guestEmail"], message: PASS_MSG.contactRequired });
    if (v.deviceIds.length === 0 && v.deviceGroupId == null) ctx.addIssue({ code: "custom", path: ["deviceIds"], message: PASS_MSG.doorsRequired });
    if (v.deviceIds.length > 0 && v.deviceGroupId != null) ctx.addIssue({ code: "custom", path: ["deviceGroupId"], message: PASS_MSG.doorsOrGroup });
    if (v.endDate < v.startDate) ctx.addIssue({ code: "custom", path: ["endDate"], message: PASS_MSG.endBeforeStart });
    // Daily hours: each day of the visit opens from startTime to endTime.
    if (v.endTime <= v.startTime) ctx.addIssue({ code: "custom", path: ["endTime"], message: PASS_MSG.endBeforeStart });
  });
export type PassInput = z.infer<typeof passSchema>;

export const passRulesSchema = z.object({
  maxDays: z.coerce.number({ invalid_type_error: PASS_MSG.maxDays }).int(PASS_MSG.maxDays).min(1, PASS_MSG.maxDays).max(90, PASS_MSG.maxDays),
  hostRoleIds: ids.default([]),
  deviceGroupId: optionalId.default(null),
});
export type PassRulesInput = z.infer<typeof passRulesSchema>;

/** The guest's phone opening its link: the link's secret and the phone's installation id. */
export const openPassSchema = z.object({
  token: z.string().min(20, PASS_MSG.linkInvalid).max(100, PASS_MSG.linkInvalid),
  installationId: z.string().min(8).max(128),
});
