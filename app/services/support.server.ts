/**
 * Support tickets (docs/ARCHITECTURE.md §7.4, decision 0027). The phone app opens a ticket with its
 * phone details, position and the devices it knows; company users with the support module read their
 * company's tickets, holders of the platform's company module read every company they oversee, and
 * both add notes. FAQs live in `faqs.server.ts`.
 */
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { mobileTicketSchema, SUPPORT_MSG, supportNoteSchema } from "~/schemas/support";
import { activityInsert, activityValues } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { can } from "~/utils/permissions";
import { visibleCompanies } from "./companies.server";
import { overRateLimit, THROTTLE } from "./throttle.server";

/** Tickets one user may open in the throttle window (15 minutes): enough for a real problem, not for a flood. */
export const TICKET_LIMIT = 10;

const t = schema.supportTickets;
const u = schema.users;
const c = schema.companies;

/** One entry of a ticket's devices table, keyed by device id in `devices_details`. */
export type TicketDevice = { full_name: string; prefix: string; visible: boolean; device: boolean; sentinel: boolean };

/**
 * Which tickets the caller may see: with the company module every company it oversees (all of them for
 * the platform), otherwise its own company's with the support module. Anyone else is refused.
 */
function ticketScope(auth: Auth): SQL {
  if (can(auth.permissions, "company")) return sql`${t.companyId} in (select companies.id from companies where ${visibleCompanies(auth)})`;
  assertCan(auth, "support");
  return eq(t.companyId, auth.company.id);
}

export const TICKET_SORTS = { number: t.ticketNumber, createdAt: t.createdAt, user: u.displayName, company: c.name } as const;
export type TicketSort = keyof typeof TICKET_SORTS;

const listColumns = {
  id: t.id,
  ticketNumber: t.ticketNumber,
  createdAt: t.createdAt,
  companyId: t.companyId,
  companyName: c.name,
  userId: t.userId,
  userFirstName: u.firstName,
  userLastName: u.lastName,
  userDisplayName: u.displayName,
  userEmail: u.email,
  userCountryCode: u.countryCode,
  userPhone: u.phoneNumber,
  brand: t.brand,
  phoneModel: t.phoneModel,
};
export type TicketListRow = {
  id: number;
  ticketNumber: string;
  createdAt: number;
  companyId: number;
  companyName: string | null;
  userId: number;
  userFirstName: string | null;
  userLastName: string | null;
  userDisplayName: string | null;
  userEmail: string | null;
  userCountryCode: string | null;
  userPhone: string | null;
  brand: string;
  phoneModel: string;
};

export async function listTickets(
  db: Db,
  auth: Auth,
  opts: { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } } = {},
): Promise<{ rows: TicketListRow[]; total: number }> {
  const scope = ticketScope(auth);
  const key: TicketSort = opts.sort && opts.sort.key in TICKET_SORTS ? (opts.sort.key as TicketSort) : "createdAt";
  const dir = opts.sort ? (opts.sort.desc ? desc : asc) : desc;
  const base = db.select(listColumns).from(t).leftJoin(u, eq(u.id, t.userId)).leftJoin(c, eq(c.id, t.companyId)).where(scope).orderBy(dir(TICKET_SORTS[key]), desc(t.id));
  const [rows, totals] = await Promise.all([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, t, scope)]);
  return { rows, total: totals[0]?.n ?? 0 };
}

async function findTicket(db: Db, auth: Auth, id: number) {
  const scope = ticketScope(auth);
  if (!Number.isInteger(id) || id <= 0) notFound(SUPPORT_MSG.ticketNotFound);
  const [row] = await db
    .select()
    .from(t)
    .where(and(scope, eq(t.id, id)))
    .limit(1);
  return row ?? notFound(SUPPORT_MSG.ticketNotFound);
}

function parseDevices(json: string): Record<string, TicketDevice> {
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, TicketDevice>) : {};
  } catch {
    return {};
  }
}

export async function getTicketDetails(db: Db, auth: Auth, id: number) {
  const ticket = await findTicket(db, auth, id);
  const [owner, company, notes] = await Promise.all([
    db.query.users.findFirst({ where: eq(u.id, ticket.userId) }),
    db.query.companies.findFirst({ where: eq(c.id, ticket.companyId) }),
    db
      .select({ id: schema.supportTicketNotes.id, note: schema.supportTicketNotes.note, createdAt: schema.supportTicketNotes.createdAt, authorName: u.displayName })
      .from(schema.supportTicketNotes)
      .leftJoin(u, eq(u.id, schema.supportTicketNotes.userId))
      .where(and(eq(schema.supportTicketNotes.ticketId, ticket.id), eq(schema.supportTicketNotes.companyId, ticket.companyId)))
      .orderBy(desc(schema.supportTicketNotes.createdAt), desc(schema.supportTicketNotes.id)),
  ]);
  return {
    ticket: { ...ticket, devicesDetails: parseDevices(ticket.devicesDetails) },
    owner: owner
      ? {
          id: owner.id,
          firstName: owner.firstName,
          lastName: owner.lastName,
          displayName: owner.displayName,
          email: owner.email,
          countryCode: owner.countryCode,
          phoneNumber: owner.phoneNumber,
          deleted: owner.deletedAt != null,
        }
      : null,
    company: company ? { id: company.id, name: company.name } : null,
    notes: notes.map((n) => ({ ...n, authorName: n.authorName ?? "" })),
  };
}
export type TicketDetails = Awaited<ReturnType<typeof getTicketDetails>>;

/** Adds a note; it belongs to the ticket's company, and so does its audit entry. */
export async function addTicketNote(db: Db, auth: Auth, input: { serviceTicketId: number; notes: unknown }, now: number): Promise<{ message: string }> {
  const ticket = await findTicket(db, auth, input.serviceTicketId);
  assertCan(auth, ["support", "company"], "add");
  const v = parseInput(supportNoteSchema, { notes: input.notes });
  await db.batch([
    db.insert(schema.supportTicketNotes).values({ companyId: ticket.companyId, ticketId: ticket.id, userId: auth.user.id, note: v.notes, createdAt: now }),
    activityInsert(db, {
      companyId: ticket.companyId,
      name: "Support Note Added",
      createdByUserId: auth.user.id,
      targetUserId: ticket.userId,
      summary: ticket.ticketNumber,
      at: now,
    }),
  ]);
  return { message: SUPPORT_MSG.noteAdded };
}

/**
 * The phone app opens a ticket for its signed-in user (docs/mobile-support-ticket.md). Every device it
 * names must be a live device of the user's company; names and type prefixes are read here, never
 * taken from the phone. The ticket number is drawn inside the insert, so two tickets never share one.
 */
export async function createTicketFromPhone(db: Db, auth: Auth, input: unknown, now: number): Promise<{ id: number; ticketNumber: string; message: string }> {
  const v = parseInput(mobileTicketSchema, input);
  if (await overRateLimit(db, `ticket:user:${auth.user.id}`, TICKET_LIMIT, THROTTLE.windowMs, now)) throw new ServiceError(429, SUPPORT_MSG.tooManyTickets);
  const ids = [...new Set(v.devices.map((d) => d.deviceId))];
  const known = ids.length
    ? await db
        .select({ id: schema.devices.id, fullName: schema.devices.fullName, displayName: schema.devices.displayName, code: schema.deviceTypes.deviceCode })
        .from(schema.devices)
        .leftJoin(schema.deviceTypes, eq(schema.deviceTypes.id, schema.devices.deviceTypeId))
        .where(and(eq(schema.devices.companyId, auth.company.id), isNull(schema.devices.deletedAt), inArray(schema.devices.id, ids)))
    : [];
  const byId = new Map(known.map((d) => [d.id, d]));
  const missing = v.devices.findIndex((d) => !byId.has(d.deviceId));
  if (missing >= 0) throw new ServiceError(422, SUPPORT_MSG.deviceNotInCompany, { fieldErrors: { [`devices.${missing}.deviceId`]: [SUPPORT_MSG.deviceNotInCompany] } });
  const devicesDetails: Record<string, TicketDevice> = {};
  for (const d of v.devices) {
    const row = byId.get(d.deviceId)!;
    devicesDetails[String(d.deviceId)] = {
      full_name: row.fullName || row.displayName,
      prefix: (row.code ?? "").split("-")[0],
      visible: d.visible,
      device: d.kind === "device",
      sentinel: d.sentinel,
    };
  }
  const gps = v.latitude != null && v.longitude != null ? `${v.latitude},${v.longitude}` : null;
  const [inserted] = await db.batch([
    db
      .insert(t)
      .values({
        companyId: auth.company.id,
        ticketNumber: sql`(select 'T-' || (100001 + coalesce(max(id), 0)) from support_tickets)`,
        userId: auth.user.id,
        brand: v.brand,
        phoneModel: v.phoneModel,
        softwareVersion: v.softwareVersion,
        appVersion: v.appVersion,
        ticketMode: v.ticketMode,
        bluetoothStatus: v.bluetoothStatus,
        bluetoothPermission: v.bluetoothPermission ? 1 : 0,
        locationPermission: v.locationPermission ? 1 : 0,
        latitude: v.latitude ?? null,
        longitude: v.longitude ?? null,
        sentinelDateTime: v.sentinelDateTime ?? null,
        reportingDateTime: v.reportingDateTime ?? null,
        devicesDetails: JSON.stringify(devicesDetails),
        createdAt: now,
      })
      .returning({ id: t.id, ticketNumber: t.ticketNumber }),
    db.insert(schema.activityLogs).values({
      ...activityValues({
        companyId: auth.company.id,
        name: "Support Ticket Created",
        operationType: "App",
        createdByUserId: auth.user.id,
        targetUserId: auth.user.id,
        gpsLocation: gps,
        at: now,
      }),
      // The number the insert above drew (same batch, same connection).
      summary: sql`(select ticket_number from support_tickets where rowid = last_insert_rowid())`,
    }),
  ]);
  return { id: inserted[0].id, ticketNumber: inserted[0].ticketNumber, message: SUPPORT_MSG.ticketCreated };
}
