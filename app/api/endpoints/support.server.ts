import { z } from "zod";
import { FAQ_LANGUAGES, supportNoteBody } from "~/schemas/support";
import * as faqs from "~/services/faqs.server";
import * as support from "~/services/support.server";
import type { TicketDetails, TicketListRow } from "~/services/support.server";
import { splitPhone } from "~/utils/phone";
import { bit, bitShape } from "../flags.server";
import { endpoint } from "../define.server";

const tag = "Support";
const message = z.object({ message: z.string() });

const userShape = z.object({ id: z.number(), dispay_name: z.string(), country_code: z.string(), e_mail: z.string() });
const ticketRowShape = z.object({
  id: z.number(),
  ticket_id: z.number(),
  ticket_number: z.string(),
  full_name: z.string(),
  phone: z.string(),
  country_code: z.string(),
  email: z.string(),
  created: z.number(),
  createdAt: z.number(),
  company: z.object({ id: z.number(), name: z.string() }),
  User: userShape,
  brand: z.string(),
  phone_model: z.string(),
});

/** A list row in the spec's names (decision 0017). */
function ticketRow(r: TicketListRow) {
  return {
    id: r.id,
    ticket_id: r.id,
    ticket_number: r.ticketNumber,
    full_name: [r.userFirstName, r.userLastName].filter(Boolean).join(" "),
    // Phones are stored as E.164 (decision 0037); the spec's pair is derived from it.
    phone: splitPhone(r.userPhone).phoneNumber,
    country_code: splitPhone(r.userPhone).countryCode,
    email: r.userEmail ?? "",
    created: r.createdAt,
    createdAt: r.createdAt,
    company: { id: r.companyId, name: r.companyName ?? "" },
    User: { id: r.userId, dispay_name: r.userDisplayName ?? "", country_code: r.userCountryCode ?? "", e_mail: r.userEmail ?? "" },
    brand: r.brand,
    phone_model: r.phoneModel,
  };
}

const ticketDevice = z.object({ full_name: z.string(), prefix: z.string(), visible: z.boolean(), device: z.boolean(), sentinel: z.boolean() });
const ticketDetailsShape = ticketRowShape.extend({
  sequence: z.number(),
  software_version: z.string(),
  app_version: z.string(),
  ticket_mode: z.number().describe("1 online, 0 offline"),
  bluetooth_status: z.string(),
  bluetooth_permission: bitShape,
  location_permission: bitShape,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  gps_location: z.string().nullable().describe("latitude,longitude"),
  phone_gps_location: z.string().nullable(),
  sentinel_date_time: z.number().nullable(),
  reporting_date_time: z.number().nullable(),
  devices_details: z.record(ticketDevice).describe("By device or e-key id: what the phone reported"),
  reportedDevices: z.number(),
  active_lock: z.number(),
  assignedSeninel: z.number().describe("sic: the spec's name"),
  serviceTicketNotes: z.array(z.object({ id: z.number(), createdAt: z.number(), User: z.object({ dispay_name: z.string() }), note_description: z.string() })),
});

/** The details payload in the spec's names; device states stay booleans as the spec's devices_details map has them. */
function ticketDetails({ ticket: tk, owner, company, notes }: TicketDetails) {
  const devices = Object.values(tk.devicesDetails);
  const gps = tk.latitude != null && tk.longitude != null ? `${tk.latitude},${tk.longitude}` : null;
  return {
    id: tk.id,
    sequence: tk.id,
    ticket_id: tk.id,
    ticket_number: tk.ticketNumber,
    full_name: owner ? `${owner.firstName} ${owner.lastName}`.trim() : "",
    phone: splitPhone(owner?.phoneNumber).phoneNumber,
    country_code: splitPhone(owner?.phoneNumber).countryCode,
    email: owner?.email ?? "",
    created: tk.createdAt,
    createdAt: tk.createdAt,
    company: company ?? { id: tk.companyId, name: "" },
    User: { id: tk.userId, dispay_name: owner?.displayName ?? "", country_code: owner?.countryCode ?? "", e_mail: owner?.email ?? "" },
    brand: tk.brand,
    phone_model: tk.phoneModel,
    software_version: tk.softwareVersion,
    app_version: tk.appVersion,
    ticket_mode: tk.ticketMode,
    bluetooth_status: tk.bluetoothStatus,
    bluetooth_permission: bit(tk.bluetoothPermission),
    location_permission: bit(tk.locationPermission),
    latitude: tk.latitude,
    longitude: tk.longitude,
    gps_location: gps,
    phone_gps_location: gps,
    sentinel_date_time: tk.sentinelDateTime,
    reporting_date_time: tk.reportingDateTime,
    devices_details: tk.devicesDetails,
    reportedDevices: devices.length,
    active_lock: devices.filter((d) => d.visible).length,
    assignedSeninel: devices.filter((d) => d.sentinel).length,
    serviceTicketNotes: notes.map((n) => ({ id: n.id, createdAt: n.createdAt, User: { dispay_name: n.authorName }, note_description: n.note })),
  };
}

const loose = z.union([z.number(), z.string(), z.boolean()]);
/** The call's documented shape; the service checks values and ranges with the spec's messages (`mobileTicketSchema`). */
const mobileTicketBody = z.object({
  brand: z.string().max(60).optional(),
  phoneModel: z.string().max(60).optional(),
  softwareVersion: z.string().max(60).optional(),
  appVersion: z.string().max(60).optional(),
  ticketMode: z.union([z.number(), z.string()]).optional().describe("1 online, 0 offline"),
  bluetoothStatus: z.enum(["On", "Off"]).optional(),
  bluetoothPermission: loose.optional().describe("1/0"),
  locationPermission: loose.optional().describe("1/0"),
  latitude: z.union([z.number(), z.string()]).nullish(),
  longitude: z.union([z.number(), z.string()]).nullish(),
  sentinelDateTime: z.union([z.number(), z.string()]).nullish().describe("epoch milliseconds"),
  reportingDateTime: z.union([z.number(), z.string()]).nullish().describe("epoch milliseconds"),
  devices: z
    .array(z.object({ deviceId: z.union([z.number(), z.string()]), kind: z.enum(["device", "ekey"]).optional(), visible: loose.optional(), sentinel: loose.optional() }))
    .max(200)
    .optional(),
});

const idQuery = z.object({ id: z.coerce.number().int().positive() });

const faqBody = z.object({ language: z.string().optional(), question: z.unknown(), answer: z.unknown() });

/** Root's FAQ editing, the same service the /adminSupport page uses. */
const faqEndpoints = [
  endpoint({
    method: "POST",
    path: "/support/addFaq",
    tag,
    summary: "Adds an FAQ entry in one language (en or es), last in its list ('FAQ Created'); root company only. 400 'Question is required' / 'Answer is required'.",
    auth: "token",
    permission: { modules: ["support", "company"], action: "add", guard: (_, auth) => faqs.assertEditor(auth, "add") },
    body: faqBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await faqs.addFaq(db, auth, body, now);
    },
  }),
  endpoint({
    method: "PUT",
    path: "/support/updateFaq",
    tag,
    summary: "Saves an FAQ entry ('FAQ Modified'); root company only.",
    auth: "token",
    permission: { modules: ["support", "company"], action: "modify", guard: (_, auth) => faqs.assertEditor(auth, "modify") },
    body: faqBody.extend({ id: z.coerce.number().int().positive() }),
    response: message,
    async handler({ db, auth, body, now }) {
      return await faqs.updateFaq(db, auth, body.id, body, now);
    },
  }),
  endpoint({
    method: "PUT",
    path: "/support/moveFaq",
    tag,
    summary: "Moves an FAQ entry one place up or down within its language; root company only.",
    auth: "token",
    permission: { modules: ["support", "company"], action: "modify", guard: (_, auth) => faqs.assertEditor(auth, "modify") },
    body: z.object({ id: z.coerce.number().int().positive(), direction: z.enum(["up", "down"]) }),
    response: message,
    async handler({ db, auth, body, now }) {
      return await faqs.moveFaq(db, auth, body, now);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/support/deleteFaq",
    tag,
    summary: "Deletes an FAQ entry ('FAQ Deleted'); root company only.",
    auth: "token",
    permission: { modules: ["support", "company"], action: "delete", guard: (_, auth) => faqs.assertEditor(auth, "delete") },
    query: idQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await faqs.deleteFaq(db, auth, query.id, now);
    },
  }),
];

export const supportEndpoints = [
  endpoint({
    method: "GET",
    path: "/support/getAllGeneratedTickets",
    tag,
    summary:
      "Support tickets, newest first: the caller's company with the support module; every company the caller oversees (with its company) with the company module. 403 without either.",
    auth: "token",
    permission: { modules: ["support", "company"] },
    response: z.object({ message: z.string(), payload: z.array(ticketRowShape) }),
    async handler({ db, auth }) {
      return { payload: (await support.listTickets(db, auth)).rows.map(ticketRow) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/support/generatedTicketDetails",
    tag,
    summary: "One ticket with its phone details, position, the devices and e-keys the phone reported, and its notes (newest first). 404 outside the caller's scope.",
    auth: "token",
    permission: { modules: ["support", "company"] },
    query: idQuery,
    response: z.object({ payload: ticketDetailsShape }),
    async handler({ db, auth, query }) {
      return { payload: ticketDetails(await support.getTicketDetails(db, auth, query.id)) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/support/createSupportNotes",
    tag,
    summary: "Adds a note to a ticket ('Support Note Added'); needs the add right. 400 'Note is required'; 404 outside the caller's scope. The author is the caller.",
    auth: "token",
    permission: { modules: ["support", "company"], action: "add" },
    body: supportNoteBody.omit({ notes: true }).extend({ notes: z.unknown() }),
    response: message,
    async handler({ db, auth, body, now }) {
      return await support.addTicketNote(db, auth, { serviceTicketId: body.serviceTicketId, notes: body.notes }, now);
    },
  }),
  ...faqEndpoints,
  endpoint({
    method: "GET",
    path: "/support/getFaqs",
    tag,
    summary: "The FAQ entries of one language (default en), in order.",
    auth: "token",
    permission: { modules: ["support", "company"] },
    query: z.object({ language: z.enum(FAQ_LANGUAGES).default("en") }),
    response: z.object({ message: z.string(), payload: z.array(z.object({ id: z.number(), question: z.string(), answer: z.string(), sort_order: z.number() })) }),
    async handler({ db, auth, query }) {
      const rows = await faqs.listFaqs(db, auth, query.language);
      return { payload: rows.map((r) => ({ id: r.id, question: r.question, answer: r.answer, sort_order: r.sortOrder })) };
    },
  }),
];

/** The phone app's call (mounted under /api/user, docs/mobile-support-ticket.md). */
export const mobileSupportEndpoints = [
  endpoint({
    method: "POST",
    path: "/support/createTicket",
    tag,
    summary:
      "The phone app opens a support ticket for its signed-in user ('Support Ticket Created'), with the phone's details, its position and the devices it sees or holds e-keys for. " +
      "Latitude -90..90 and longitude -180..180, both or neither (400 'Invalid latitude or longitude'); every device must be a device of the user's company (422 'This device does not belong to your company'); at most 200 devices.",
    auth: "token",
    permission: "signed-in",
    body: mobileTicketBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), ticket_number: z.string() }) }),
    async handler({ db, auth, body, now }) {
      const r = await support.createTicketFromPhone(db, auth, body, now);
      return { message: r.message, payload: { id: r.id, ticket_number: r.ticketNumber } };
    },
  }),
];
