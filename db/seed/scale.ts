/**
 * Scale data for one company: 10,000 users, 5,000 devices and 1,000 groups with memberships
 * and e-keys, for measuring the list pages (`npm run bench:console`). Ids continue after the
 * highest existing ones. Each table is one `INSERT ... SELECT` over a generated series, so the
 * whole set is a single D1 batch of six statements (only computed integers are inlined).
 */
import { count, like, max } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../schema";
import { isoDay } from "./clock";

type Db = DrizzleD1Database<typeof schema> & { $client: D1Database };

export const SCALE = { users: 10_000, devices: 5_000, groups: 1_000, devicesPerGroup: 5 } as const;
const SERIAL_PREFIX = "SCALE-";
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** `WITH RECURSIVE n(i)` counting 0..size-1, followed by `body` (an INSERT ... SELECT ... FROM n). */
const series = (size: number, body: string) => `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${size - 1}) ${body}`;

async function nextId(db: Db, table: typeof schema.users | typeof schema.devices | typeof schema.deviceGroups) {
  const [row] = await db.select({ n: max(table.id) }).from(table);
  return (row.n ?? 0) + 1;
}

/** Adds the scale data to `companyId` unless it is already there; returns whether it seeded. */
export async function seedScale(db: Db, companyId: number, now: number): Promise<boolean> {
  const [done] = await db
    .select({ n: count() })
    .from(schema.devices)
    .where(like(schema.devices.serialNumber, `${SERIAL_PREFIX}%`));
  if (done.n > 0) return false;
  const zone = await db.query.timeZones.findFirst({ where: (t, { eq }) => eq(t.name, "Europe/Madrid") });
  const zoneId = zone?.id ?? "null";
  const [user0, device0, group0] = await Promise.all([nextId(db, schema.users), nextId(db, schema.devices), nextId(db, schema.deviceGroups)]);
  const { users, devices, groups, devicesPerGroup } = SCALE;

  const d1 = db.$client;
  await d1.batch([
    d1.prepare(
      series(
        users,
        `insert into users (id, company_id, first_name, last_name, display_name, email, phone_number, is_inactive, last_activity_at, created_at)
            select ${user0} + i, ${companyId}, 'First' || i, printf('Last%05d', i), printf('Last%05d, First%d', i, i), 'scale.user.' || i || '@scale.example',
                   cast(6000000000 + i as text), i % 10 = 9, case when i % 3 = 0 then ${now} - (i % 500) * ${HOUR} end, ${now} - (i % 700) * ${DAY} from n`,
      ),
    ),
    d1.prepare(
      series(
        devices,
        `insert into devices (id, company_id, device_type_id, full_name, display_name, serial_number, schedule_open, last_activity_at, created_at)
            select ${device0} + i, ${companyId}, 1, printf('Door %04d', i), 'D' || i, printf('${SERIAL_PREFIX}%06d', i), i % 4 = 0,
                   case when i % 2 = 0 then ${now} - (i % 300) * ${HOUR} end, ${now} - (i % 900) * ${DAY} from n`,
      ),
    ),
    d1.prepare(
      series(
        groups,
        `insert into device_groups (id, company_id, full_name, display_name, sch_monday, sch_tuesday, sch_wednesday, sch_thursday, sch_friday, sch_saturday,
                                       is_all_day, start_at, end_at, time_zone_id, status, created_at)
            select ${group0} + i, ${companyId}, printf('Group %04d', i), 'G' || i, 1, 1, 1, 1, 1, i % 2 = 0, i % 5 = 0,
                   case when i % 5 <> 0 then '08:00' end, case when i % 5 <> 0 then '18:00' end, ${zoneId}, case when i % 7 = 6 then 3 else 1 end,
                   ${now} - (i % 400) * ${DAY} from n`,
      ),
    ),
    // Group g holds devices g*5 .. g*5+4.
    d1.prepare(
      series(
        groups * devicesPerGroup,
        `insert into device_group_members (group_id, device_id, company_id)
            select ${group0} + i / ${devicesPerGroup}, ${device0} + i % ${devices}, ${companyId} from n`,
      ),
    ),
    // Every other user holds a device key; every tenth also a group key.
    d1.prepare(
      series(
        users,
        `insert into ekey_assignments (company_id, user_id, device_id, access_type, is_never_end, is_all_day)
            select ${companyId}, ${user0} + i, ${device0} + i % ${devices}, 'full_access', 1, 1 from n where i % 2 = 0`,
      ),
    ),
    d1.prepare(
      series(
        users,
        `insert into ekey_assignments (company_id, user_id, is_group, group_id, access_type, start_date, is_never_end, is_all_day, time_zone_id)
            select ${companyId}, ${user0} + i, 1, ${group0} + i % ${groups}, 'custom_access', '${isoDay(now, -323)}', 1, 1, ${zoneId} from n where i % 10 = 0`,
      ),
    ),
  ]);
  return true;
}
