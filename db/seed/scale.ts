/**
 * Scale data for one company: 10,000 users, 5,000 devices and 1,000 groups with memberships
 * and e-keys, for measuring the list pages (`npm run bench:console`). Ids continue after the
 * highest existing ones; rows go in multi-row inserts sized to D1's 100-parameter limit
 * (drizzle binds column defaults too, so the size follows the table's column count).
 */
import { count, like, max } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../schema";
import { chunkedInserts, runBatches } from "./batch";

type Db = DrizzleD1Database<typeof schema>;

export const SCALE = { users: 10_000, devices: 5_000, groups: 1_000, devicesPerGroup: 5 } as const;
const SERIAL_PREFIX = "SCALE-";
async function nextId(db: Db, table: typeof schema.users | typeof schema.devices | typeof schema.deviceGroups) {
  const [row] = await db.select({ n: max(table.id) }).from(table);
  return (row.n ?? 0) + 1;
}

/** Adds the scale data to `companyId` unless it is already there; returns whether it seeded. */
export async function seedScale(db: Db, companyId: number, now = Date.now()): Promise<boolean> {
  const [done] = await db.select({ n: count() }).from(schema.devices).where(like(schema.devices.serialNumber, `${SERIAL_PREFIX}%`));
  if (done.n > 0) return false;
  const zone = await db.query.timeZones.findFirst({ where: (t, { eq }) => eq(t.name, "Europe/Madrid") });
  const day = 86_400_000;
  const [firstUser, firstDevice, firstGroup] = await Promise.all([nextId(db, schema.users), nextId(db, schema.devices), nextId(db, schema.deviceGroups)]);

  const users = Array.from({ length: SCALE.users }, (_, i) => ({
    id: firstUser + i,
    companyId,
    firstName: `First${i}`,
    lastName: `Last${String(i).padStart(5, "0")}`,
    displayName: `Last${String(i).padStart(5, "0")}, First${i}`,
    email: `scale.user.${i}@scale.example`,
    phoneNumber: String(6000000000 + i),
    isInactive: i % 10 === 9,
    lastActivityAt: i % 3 === 0 ? now - (i % 500) * 3_600_000 : null,
    createdAt: now - (i % 700) * day,
  }));
  const devices = Array.from({ length: SCALE.devices }, (_, i) => ({
    id: firstDevice + i,
    companyId,
    deviceTypeId: 1,
    fullName: `Door ${String(i).padStart(4, "0")}`,
    displayName: `D${i}`,
    serialNumber: `${SERIAL_PREFIX}${String(i).padStart(6, "0")}`,
    scheduleOpen: i % 4 === 0,
    lastActivityAt: i % 2 === 0 ? now - (i % 300) * 3_600_000 : null,
    createdAt: now - (i % 900) * day,
  }));
  const groups = Array.from({ length: SCALE.groups }, (_, i) => ({
    id: firstGroup + i,
    companyId,
    fullName: `Group ${String(i).padStart(4, "0")}`,
    displayName: `G${i}`,
    schMonday: true,
    schTuesday: true,
    schWednesday: true,
    schThursday: true,
    schFriday: true,
    schSaturday: i % 2 === 0,
    isAllDay: i % 5 === 0,
    startAt: i % 5 === 0 ? null : "08:00",
    endAt: i % 5 === 0 ? null : "18:00",
    timeZoneId: zone?.id ?? null,
    status: i % 7 === 6 ? 3 : 1,
    createdAt: now - (i % 400) * day,
  }));
  const members = groups.flatMap((g, i) =>
    Array.from({ length: SCALE.devicesPerGroup }, (_, j) => ({ groupId: g.id, deviceId: firstDevice + ((i * SCALE.devicesPerGroup + j) % SCALE.devices), companyId })),
  );
  // Every other user holds a device key; every tenth also a group key.
  const keys = users.flatMap((u, i) => [
    ...(i % 2 === 0 ? [{ companyId, userId: u.id, deviceId: firstDevice + (i % SCALE.devices), accessType: "full_access" as const, isNeverEnd: true, isAllDay: true }] : []),
    ...(i % 10 === 0 ? [{ companyId, userId: u.id, isGroup: true, groupId: firstGroup + (i % SCALE.groups), accessType: "custom_access" as const, startDate: "2026-01-01", isNeverEnd: true, isAllDay: true, timeZoneId: zone?.id ?? null }] : []),
  ]);

  await runBatches(db, [
    ...chunkedInserts(db, schema.users, users),
    ...chunkedInserts(db, schema.devices, devices),
    ...chunkedInserts(db, schema.deviceGroups, groups),
    ...chunkedInserts(db, schema.deviceGroupMembers, members),
    ...chunkedInserts(db, schema.ekeyAssignments, keys.filter((k) => !("isGroup" in k))),
    ...chunkedInserts(db, schema.ekeyAssignments, keys.filter((k) => "isGroup" in k)),
  ], 100);
  return true;
}
