/**
 * Support tickets and FAQs (docs/ARCHITECTURE.md §7.4): the note form, the ticket the phone app opens
 * (docs/mobile-support-ticket.md) and the FAQ form, shared by the pages, the services and the APIs.
 */
import { z } from "zod";
import { freeText } from "./text";

export const SUPPORT_MSG = {
  note: "Note is required",
  invalidLocation: "Invalid latitude or longitude",
  ticketNotFound: "The provided ticket is invalid",
  noteAdded: "Note added successfully",
  ticketCreated: "Support ticket created successfully",
  deviceNotInCompany: "This device does not belong to your company",
  tooManyTickets: "Too many tickets. Try again later.",
  faqNotFound: "The provided FAQ is invalid",
  faqCreated: "FAQ created successfully",
  faqModified: "FAQ modified successfully",
  faqDeleted: "FAQ deleted successfully",
  faqMoved: "FAQ order saved",
  question: "Question is required",
  answer: "Answer is required",
} as const;

export const NOTE_MAX = 2000;
export const TICKET_PAGE_SIZE = 25;

/** The spec's rule for the GPS link and the small map: both strictly inside their ranges. */
export function isValidLocation(latitude: number | null | undefined, longitude: number | null | undefined): boolean {
  return typeof latitude === "number" && typeof longitude === "number" && latitude > -90 && latitude < 90 && longitude > -180 && longitude < 180;
}

const requiredText = (message: string, label: string, max: number) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).pipe(freeText(label, max));

/** The add-note form (`createSupportNotes` sends `notes`, `serviceTicketId`; `userId` is the caller). */
export const supportNoteSchema = z.object({
  notes: requiredText(SUPPORT_MSG.note, "Note", NOTE_MAX),
});

export const supportNoteBody = supportNoteSchema.extend({
  serviceTicketId: z.coerce.number({ invalid_type_error: SUPPORT_MSG.ticketNotFound }).int().positive(SUPPORT_MSG.ticketNotFound),
  /** Accepted for the spec's shape; the author is always the caller. */
  userId: z.coerce.number().int().positive().optional(),
});

const phoneText = (label: string) => z.string().trim().pipe(freeText(label, 60)).default("");
const flag = z.union([z.literal(0), z.literal(1), z.literal("0"), z.literal("1"), z.boolean()]).transform((v) => v === 1 || v === "1" || v === true);
const instant = z.coerce.number().int().min(0).max(8.64e15).nullish();

/** One device the phone knows about: a lock it sees (`device`) or one of its e-keys (`ekey`). */
export const reportedDevice = z.object({
  deviceId: z.coerce.number().int().positive(),
  kind: z.enum(["device", "ekey"]).default("device"),
  /** Seen over Bluetooth when the ticket was opened. */
  visible: flag.default(false),
  /** Reachable in sentinel mode. */
  sentinel: flag.default(false),
});

/** What the phone app sends to open a ticket (POST /api/user/support/createTicket). */
export const mobileTicketSchema = z
  .object({
    brand: phoneText("Brand"),
    phoneModel: phoneText("Phone model"),
    softwareVersion: phoneText("Software version"),
    appVersion: phoneText("App version"),
    /** 1 online, 0 offline. */
    ticketMode: z
      .union([z.literal(0), z.literal(1), z.literal("0"), z.literal("1")])
      .transform(Number)
      .default(1),
    bluetoothStatus: z.enum(["On", "Off"]).default("On"),
    bluetoothPermission: flag.default(true),
    locationPermission: flag.default(true),
    latitude: z.coerce.number().finite().nullish(),
    longitude: z.coerce.number().finite().nullish(),
    /** Epoch milliseconds: the sentinel's clock and the app's clock when the report was made. */
    sentinelDateTime: instant,
    reportingDateTime: instant,
    devices: z.array(reportedDevice).max(200, "At most 200 devices per ticket").default([]),
  })
  .superRefine((v, ctx) => {
    const given = [v.latitude, v.longitude].filter((x) => x != null).length;
    if (given === 0) return;
    if (given === 1 || v.latitude! < -90 || v.latitude! > 90 || v.longitude! < -180 || v.longitude! > 180)
      ctx.addIssue({ code: "custom", path: ["latitude"], message: SUPPORT_MSG.invalidLocation });
  });
export type MobileTicketInput = z.output<typeof mobileTicketSchema>;

export const FAQ_LANGUAGES = ["en", "es"] as const;
export const FAQ_QUESTION_MAX = 300;
export const FAQ_ANSWER_MAX = 4000;

/** Root's FAQ form: one entry in one language. */
export const faqSchema = z.object({
  language: z.enum(FAQ_LANGUAGES),
  question: requiredText(SUPPORT_MSG.question, "Question", FAQ_QUESTION_MAX),
  answer: requiredText(SUPPORT_MSG.answer, "Answer", FAQ_ANSWER_MAX),
});
export type FaqInput = z.output<typeof faqSchema>;

export const idSchema = z.object({ id: z.coerce.number().int().positive() });
export const faqMoveSchema = idSchema.extend({ direction: z.enum(["up", "down"]) });
