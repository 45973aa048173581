/**
 * The company's devices and device groups as CSV (decision 0089), streamed in pages of EXPORT_PAGE rows
 * by id as the users export is, cells a spreadsheet would run as formulas kept as text.
 *
 * - Devices: the columns the boards' registration reads (`serial_front, serial_back, device_type`, the
 *   type as its code), so an exported file can be registered or read back unchanged; the /devices list's
 *   search and filters apply when given.
 * - Device groups: names, status, schedule, holidays and the doors (device names joined as `group_keys`
 *   joins group names: `|` between them, a `|` or `\\` inside a name escaped with `\\`).
 */
import { and, asc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Core } from "~core";
import type { DeviceFilters } from "~/schemas/device-filters";
import { DEACTIVATED } from "~/schemas/device-groups";
import { REGISTER_CSV_COLUMNS } from "~/schemas/device-lifecycle";
import { joinList } from "~/schemas/user-import";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { csvLine } from "~/utils/csv";
import { schema, type Db } from "~/utils/db.server";
import { liveInCompany } from "~/utils/tenant.server";
import { deviceListWhere } from "./devices.server";
import { EXPORT_PAGE } from "./user-export.server";

export const DEVICES_FILE = "devices.csv";
export const GROUPS_FILE = "device_groups.csv";

export const GROUP_CSV_COLUMNS = ["full_name", "display_name", "status", "days", "all_day", "start", "end", "time_zone", "on_holidays", "holiday_calendar", "doors"] as const;

/** The schedule's days in the `days` cell, Monday first. */
export const DAY_CODES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

const { devices: d, deviceTypes: dt, deviceGroups: g, timeZones: tz, holidayCalendars: hc } = schema;

/** The header line, with the byte-order mark that makes spreadsheet programs read the names as UTF-8. */
const header = (columns: readonly string[]) => `\uFEFF${csvLine(columns)}\r\n`;

/**
 * A stream of the header, then pages of EXPORT_PAGE lines: `page(after)` reads the rows whose id is past
 * `after`, by id, and gives the last id and their lines.
 */
function pagedCsv(columns: readonly string[], page: (after: number) => Promise<{ last: number; lines: string[] }>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(header(columns)));
    },
    async pull(controller) {
      const { last, lines } = await page(after);
      if (lines.length) {
        after = last;
        controller.enqueue(encoder.encode(lines.map((l) => l + "\r\n").join("")));
      }
      if (lines.length < EXPORT_PAGE) controller.close();
    },
  });
}

/**
 * The company's live devices (every state, as the list shows them), or those the list's search and
 * filters select, in the registration's columns. A board without a front serial of its own gives its
 * serial number there.
 */
export async function deviceExportStream(db: Db, auth: Auth, filters: DeviceFilters, now: number, core?: Core): Promise<ReadableStream<Uint8Array>> {
  assertCan(auth, "devices");
  const where = await deviceListWhere(db, auth, filters, now, core);
  return pagedCsv(REGISTER_CSV_COLUMNS, async (after) => {
    const rows = await db
      .select({ id: d.id, serialNumber: d.serialNumber, serialFront: d.serialFront, serialBack: d.serialBack, deviceCode: dt.deviceCode })
      .from(d)
      .leftJoin(dt, eq(dt.id, d.deviceTypeId))
      .where(where(gt(d.id, after)))
      .orderBy(asc(d.id))
      .limit(EXPORT_PAGE);
    return { last: rows.at(-1)?.id ?? after, lines: rows.map((x) => csvLine([x.serialFront || x.serialNumber, x.serialBack, x.deviceCode ?? ""])) };
  });
}

/** The group's doors: its live devices' names (the serial number of one without a name), by name. */
const doorsOf: SQL<string> = sql`(select json_group_array(name) from (select coalesce(nullif(dv.full_name, ''), dv.serial_number) as name
  from device_group_members m join devices dv on dv.id = m.device_id and dv.company_id = m.company_id and dv.deleted_at is null
  where m.group_id = ${g.id} and m.company_id = ${g.companyId} order by lower(name), name))`;

/** Every live device group of the caller's company, deactivated ones included, by id. */
export function deviceGroupExportStream(db: Db, auth: Auth): ReadableStream<Uint8Array> {
  assertCan(auth, "device_group");
  return pagedCsv(GROUP_CSV_COLUMNS, async (after) => {
    const rows = await db
      .select({
        id: g.id,
        fullName: g.fullName,
        displayName: g.displayName,
        status: g.status,
        mon: g.schMonday,
        tue: g.schTuesday,
        wed: g.schWednesday,
        thu: g.schThursday,
        fri: g.schFriday,
        sat: g.schSaturday,
        sun: g.schSunday,
        isAllDay: g.isAllDay,
        startAt: g.startAt,
        endAt: g.endAt,
        timeZone: tz.name,
        onHolidays: g.onHolidays,
        calendar: hc.name,
        doors: doorsOf,
      })
      .from(g)
      .leftJoin(tz, eq(tz.id, g.timeZoneId))
      .leftJoin(hc, and(eq(hc.id, g.holidayCalendarId), eq(hc.companyId, g.companyId)))
      .where(liveInCompany(g, auth, gt(g.id, after)))
      .orderBy(asc(g.id))
      .limit(EXPORT_PAGE);
    const lines = rows.map((x) =>
      csvLine([
        x.fullName,
        x.displayName,
        x.status === DEACTIVATED ? "inactive" : "active",
        DAY_CODES.filter((day) => x[day]).join("|"),
        x.isAllDay ? "yes" : "no",
        x.isAllDay ? "" : (x.startAt ?? ""),
        x.isAllDay ? "" : (x.endAt ?? ""),
        x.timeZone ?? "",
        x.onHolidays,
        x.calendar ?? "",
        joinList(JSON.parse(x.doors) as string[]),
      ]),
    );
    return { last: rows.at(-1)?.id ?? after, lines };
  });
}
