/**
 * Demo data (docs/ARCHITECTURE.md §9): four companies with users, devices, groups, e-keys, activity,
 * alerts, tickets, invoices and stock, enough to make every screen meaningful. Deterministic
 * (seeded PRNG), so tests can rely on it. Runs only on an empty database.
 */
import { count, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../schema";
import { hashPassword } from "../../app/utils/password.server";
import { chunkedInserts, HISTORY_ALERTED, runBatches } from "./batch";
import { demoDates, isoDay } from "./clock";

type Db = DrizzleD1Database<typeof schema>;

export const DEMO_LOGINS = [
  { who: "platform root admin", company: "ROOT", user: "root@example.com", password: "Root#Demo2026" },
  { who: "reseller (var) admin", company: "RSL1", user: "var@reseller.example", password: "Var#Demo2026" },
  { who: "company (ec) admin, customer of RSL1", company: "ACME", user: "admin@acme.example", password: "Acme#Demo2026" },
  { who: "company (ec) admin, directly under ROOT", company: "BETA", user: "admin@beta.example", password: "Beta#Demo2026" },
  { who: "ACME auditor (read-only: devices, activity)", company: "ACME", user: "auditor@acme.example", password: "Audit#Demo2026" },
] as const;

export const DEMO_IDS = {
  companies: { ROOT: 1, RSL1: 2, ACME: 3, BETA: 4 },
  roles: { platform: 1, reseller: 2, acmeAdmin: 3, acmeAuditor: 4, betaAdmin: 5 },
} as const;

const COMPANY_MODULES = ["users", "devices", "device_group", "activity", "support", "company_settings", "change_password", "role"];

function prng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

const FIRST = ["Ana", "Luis", "Maria", "John", "Wei", "Fatima", "Olga", "Pedro", "Sara", "Tom", "Yuki", "Ines", "Omar", "Lena", "Raj", "Eva"];
const LAST = ["Garcia", "Smith", "Chen", "Novak", "Silva", "Khan", "Muller", "Rossi", "Lopez", "Brown", "Sato", "Costa", "Haddad", "Berg"];
const DOORS = ["Main Entrance", "Loading Dock", "Server Room", "Lab A", "Lab B", "Warehouse", "Office 2F", "Roof Access", "Garage", "Mail Room", "Gym", "Archive"];

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(schema.companies);
  return row.n === 0;
}

/** Where the demo's platform mailer delivers: a local sink (`scripts/smtp-sink.mjs`), 2525 unless a local server is told another port. */
export const DEMO_SMTP_PORT = 2525;

/**
 * Seeds the demo data with every date relative to `now`, the seed instant (`seedInstant` in
 * ./clock.ts, decision 0064): the run's clock, so the data is as fresh whenever the run happens.
 */
export async function seedDemo(db: Db, { now, smtpPort = DEMO_SMTP_PORT }: { now: number; smtpPort?: number }): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const dates = demoDates(now);
  const rand = prng(2026);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const day = 24 * 60 * 60 * 1000;
  const { companies: C, roles: R } = DEMO_IDS;
  const statements: unknown[] = [];
  const add = (s: unknown[]) => statements.push(...s);

  add(
    chunkedInserts(db, schema.companies, [
      {
        id: C.ROOT,
        code: "ROOT",
        name: "Platform Root",
        type: "root",
        parentId: null,
        pocFirstName: "Root",
        pocLastName: "Admin",
        pocEmail: "root@example.com",
        pocPhoneNumber: "+15550000001",
      },
      {
        id: C.RSL1,
        code: "RSL1",
        name: "Northwind Resellers",
        type: "var",
        parentId: C.ROOT,
        discountPercentage: 15,
        pocFirstName: "Vera",
        pocLastName: "Reseller",
        pocEmail: "var@reseller.example",
        pocPhoneNumber: "+15550000002",
        nextBillingDate: isoDay(now, 42),
      },
      {
        id: C.ACME,
        code: "ACME",
        name: "Acme Corporation",
        type: "ec",
        parentId: C.RSL1,
        pocFirstName: "Alice",
        pocLastName: "Admin",
        pocEmail: "admin@acme.example",
        pocPhoneNumber: "+15550000003",
        nextBillingDate: isoDay(now, 101),
      },
      {
        id: C.BETA,
        code: "BETA",
        name: "Beta Labs",
        type: "ec",
        parentId: C.ROOT,
        pocFirstName: "Bob",
        pocLastName: "Admin",
        pocEmail: "admin@beta.example",
        pocPhoneNumber: "+15550000004",
        nextBillingDate: isoDay(now, 73),
      },
    ]),
  );

  const roleRows = [
    { id: R.platform, companyId: C.ROOT, title: "Platform Admin", modules: ["company", "role", "deviceType", "change_password", "var_panel", "billing_portal", "support"] },
    { id: R.reseller, companyId: C.RSL1, title: "Reseller Admin", modules: [...COMPANY_MODULES, "var_panel", "billing_portal"] },
    { id: R.acmeAdmin, companyId: C.ACME, title: "Company Admin", modules: [...COMPANY_MODULES, "billing_portal"] },
    { id: R.acmeAuditor, companyId: C.ACME, title: "Auditor", modules: ["devices", "activity", "change_password"], viewOnly: true },
    { id: R.betaAdmin, companyId: C.BETA, title: "Company Admin", modules: COMPANY_MODULES },
  ];
  add(
    chunkedInserts(
      db,
      schema.roles,
      roleRows.map((r) => ({
        id: r.id,
        companyId: r.companyId,
        title: r.title,
        description: r.viewOnly ? "Read-only access" : "Full administration",
        permissionAll: !r.viewOnly,
        permissionAdd: !r.viewOnly,
        permissionModify: !r.viewOnly,
        permissionDelete: !r.viewOnly,
        permissionView: true,
      })),
    ),
  );
  add(
    chunkedInserts(
      db,
      schema.roleModules,
      roleRows.flatMap((r) => r.modules.map((m) => ({ roleId: r.id, companyId: r.companyId, moduleKey: m }))),
    ),
  );

  // Sign-in users. Hashing is the slow part, so only people who sign in get a password.
  const admins = [
    { companyId: C.ROOT, roleId: R.platform, first: "Root", last: "Admin", email: "root@example.com", password: "Root#Demo2026" },
    { companyId: C.RSL1, roleId: R.reseller, first: "Vera", last: "Reseller", email: "var@reseller.example", password: "Var#Demo2026" },
    { companyId: C.ACME, roleId: R.acmeAdmin, first: "Alice", last: "Admin", email: "admin@acme.example", password: "Acme#Demo2026" },
    { companyId: C.BETA, roleId: R.betaAdmin, first: "Bob", last: "Admin", email: "admin@beta.example", password: "Beta#Demo2026" },
    { companyId: C.ACME, roleId: R.acmeAuditor, first: "Aldo", last: "Auditor", email: "auditor@acme.example", password: "Audit#Demo2026" },
  ];
  const userRows: (typeof schema.users.$inferInsert)[] = [];
  let userId = 0;
  for (const a of admins) {
    userRows.push({
      id: ++userId,
      companyId: a.companyId,
      roleId: a.roleId,
      firstName: a.first,
      lastName: a.last,
      displayName: `${a.last}, ${a.first}`,
      email: a.email,
      phoneNumber: `+155510000${String(userId).padStart(2, "0")}`,
      isSentinel: true,
      isSuperAdmin: a.roleId !== R.acmeAuditor,
      passwordHash: await hashPassword(a.password),
      passwordChangedAt: now - 10 * day,
      lastActivityAt: now - userId * 3600_000,
      createdAt: now - 400 * day,
    });
  }
  const companyUsers: Record<number, number[]> = { [C.ACME]: [3, 5], [C.BETA]: [4], [C.RSL1]: [2], [C.ROOT]: [1] };
  for (const [companyId, n] of [
    [C.ACME, 42],
    [C.BETA, 12],
    [C.RSL1, 4],
  ] as const) {
    for (let i = 0; i < n; i++) {
      const first = pick(FIRST);
      const last = pick(LAST);
      const id = ++userId;
      companyUsers[companyId].push(id);
      userRows.push({
        id,
        companyId,
        firstName: first,
        lastName: last,
        displayName: `${last}, ${first}`,
        email: `${first}.${last}.${id}@${companyId === C.BETA ? "beta" : companyId === C.ACME ? "acme" : "reseller"}.example`.toLowerCase(),
        countryCode: i % 7 === 0 ? "034" : "001",
        // Stored as E.164 (decision 0037): every seventh user has a Spanish mobile.
        phoneNumber: i % 7 === 0 ? `+346${String(12000000 + id * 37)}` : `+1${5552000000 + id * 37}`,
        notes: i % 5 === 0 ? "Night shift" : "",
        isInstaller: i % 6 === 0,
        isSentinel: i % 9 === 0,
        isFob: i % 4 === 0,
        isInactive: i % 11 === 10,
        isSoInterrupt: i % 3 !== 0,
        isFlagged: companyId === C.ACME && i === 7,
        accountSetupPending: i % 8 === 1,
        lastActivityAt: i % 10 === 9 ? null : now - Math.floor(rand() * 30 * day),
        createdAt: now - Math.floor(rand() * 300 * day),
      });
    }
  }
  add(chunkedInserts(db, schema.users, userRows));

  add(
    chunkedInserts(db, schema.deviceTypes, [
      { id: 1, deviceCode: "AB-100", deviceType: "Access Board" },
      { id: 2, deviceCode: "MB-50", deviceType: "Mini Board" },
      { id: 3, deviceCode: "BL-1", deviceType: "Bluetooth Lock" },
    ]),
  );

  const deviceRows: (typeof schema.devices.$inferInsert)[] = [];
  const companyDevices: Record<number, number[]> = { [C.ACME]: [], [C.BETA]: [], [C.RSL1]: [] };
  let deviceId = 0;
  const addDevice = (companyId: number, name: string, status: "configured" | "stock" | "unconfigured", typeId: number) => {
    const id = ++deviceId;
    companyDevices[companyId].push(id);
    const timer = id % 3 !== 0;
    deviceRows.push({
      id,
      companyId,
      deviceTypeId: typeId,
      fullName: name,
      displayName:
        name
          .split(" ")
          .map((w) => w[0])
          .join("") + id,
      serialNumber: `SN-${String(100000 + id)}`,
      serialFront: `SF${String(1000 + id)}`,
      serialBack: `SB${String(9000 + id)}`,
      hardwareId: `HW-${(0xa000 + id).toString(16).toUpperCase()}`,
      status,
      lockType: typeId === 3 ? "Deadbolt" : "Electric Strike",
      relockTrigger: timer ? "Timer" : "Door Close",
      relockTimer: timer ? 5 : null,
      triggerMode: timer ? "" : "Sensor 1",
      manualLock: id % 4 === 0,
      sleepMode: id % 5 === 0,
      sleepTime: id % 5 === 0 ? 30 : null,
      bluetoothPowerLevel: 1 + (id % 5),
      dnortTime: timer ? null : 10,
      lowBattery: id % 7 === 0,
      scheduleOpen: id % 4 === 1,
      sensor1OpenName: id % 2 ? "Door Open" : "",
      sensor1CloseName: id % 2 ? "Door Closed" : "",
      sensor2OpenName: id % 3 === 0 ? "Window Open" : "",
      sensor2CloseName: id % 3 === 0 ? "Window Closed" : "",
      lastLatitude: status === "configured" ? 40.4 + rand() / 10 : null,
      lastLongitude: status === "configured" ? -3.7 - rand() / 10 : null,
      lastLocationAt: status === "configured" ? now - Math.floor(rand() * 5 * day) : null,
      installedAt: status === "configured" ? now - 200 * day : null,
      lastActivityAt: status === "configured" && id % 6 !== 5 ? now - Math.floor(rand() * 3 * day) : null,
      firmwareVersion: "1.0",
      createdAt: now - (300 - id) * day,
    });
  };
  DOORS.forEach((d, i) => addDevice(C.ACME, d, "configured", i % 4 === 3 ? 3 : 1));
  ["Front Door", "Clean Room", "Storage", "Back Door"].forEach((d, i) => addDevice(C.BETA, d, "configured", i % 2 ? 2 : 1));
  for (let i = 0; i < 20; i++) addDevice(C.RSL1, `Stock Board ${i + 1}`, "stock", i % 3 === 2 ? 2 : 1);
  add(chunkedInserts(db, schema.devices, deviceRows));

  // Time zone ids come from the reference list; resolve them by name inside the insert.
  const tzId = (name: string) => `(select id from time_zones where name = '${name}')`;

  const groups = [
    {
      id: 1,
      companyId: C.ACME,
      fullName: "Office Hours",
      displayName: "Office",
      days: [1, 1, 1, 1, 1, 0, 0],
      startAt: "08:00",
      endAt: "18:00",
      allDay: false,
      zone: "Europe/Madrid",
      members: [1, 5, 7],
    },
    {
      id: 2,
      companyId: C.ACME,
      fullName: "Night Security",
      displayName: "Night",
      days: [1, 1, 1, 1, 1, 1, 1],
      startAt: "22:00",
      endAt: "06:00",
      allDay: false,
      zone: "Europe/Madrid",
      members: [1, 2, 6, 9],
    },
    {
      id: 3,
      companyId: C.ACME,
      fullName: "Labs",
      displayName: "Labs",
      days: [1, 1, 1, 1, 1, 0, 0],
      startAt: null,
      endAt: null,
      allDay: true,
      zone: "America/New_York",
      members: [3, 4, 5],
    },
    {
      id: 4,
      companyId: C.ACME,
      fullName: "Weekend Crew",
      displayName: "Weekend",
      days: [0, 0, 0, 0, 0, 1, 1],
      startAt: "09:00",
      endAt: "14:00",
      allDay: false,
      zone: "Europe/Madrid",
      members: [1, 6],
      status: 3,
    },
    {
      id: 5,
      companyId: C.BETA,
      fullName: "All Doors",
      displayName: "All",
      days: [1, 1, 1, 1, 1, 1, 1],
      startAt: null,
      endAt: null,
      allDay: true,
      zone: "Europe/Berlin",
      members: [13, 14, 15, 16],
    },
  ];
  for (const g of groups) {
    statements.push(
      db.insert(schema.deviceGroups).values({
        id: g.id,
        companyId: g.companyId,
        fullName: g.fullName,
        displayName: g.displayName,
        description: `${g.fullName} schedule`,
        schMonday: !!g.days[0],
        schTuesday: !!g.days[1],
        schWednesday: !!g.days[2],
        schThursday: !!g.days[3],
        schFriday: !!g.days[4],
        schSaturday: !!g.days[5],
        schSunday: !!g.days[6],
        startAt: g.startAt,
        endAt: g.endAt,
        isAllDay: g.allDay,
        timeZoneId: sqlId(tzId(g.zone)),
        status: g.status ?? 1,
        createdAt: now - 100 * day,
      }),
    );
  }
  add(
    chunkedInserts(
      db,
      schema.deviceGroupMembers,
      groups.flatMap((g) => g.members.map((d) => ({ groupId: g.id, deviceId: d, companyId: g.companyId }))),
    ),
  );

  // E-keys: the admin holds full access everywhere; staff get custom, one-time and group keys.
  const ekeys: (typeof schema.ekeyAssignments.$inferInsert)[] = [];
  for (const d of companyDevices[C.ACME])
    ekeys.push({ companyId: C.ACME, userId: 3, deviceId: d, accessType: "full_access", scheduleDays: "1111111", isNeverEnd: true, isAllDay: true });
  const acmeStaff = companyUsers[C.ACME].slice(2);
  acmeStaff.slice(0, 24).forEach((u, i) => {
    const kind = i % 3;
    if (kind === 0)
      ekeys.push({
        companyId: C.ACME,
        userId: u,
        isGroup: true,
        groupId: 1 + (i % 3),
        accessType: "custom_access",
        startDate: isoDay(now, -323),
        isNeverEnd: true,
        isAllDay: false,
      });
    else
      ekeys.push({
        companyId: C.ACME,
        userId: u,
        deviceId: companyDevices[C.ACME][i % 12],
        accessType: kind === 1 ? "custom_access" : "one_time_access",
        status: kind === 1 ? "1" : "2",
        startDate: isoDay(now, -80),
        endDate: kind === 1 ? null : isoDay(now, 41),
        isNeverEnd: kind === 1,
        scheduleDays: kind === 1 ? "1111100" : "1111111",
        isAllDay: kind !== 1,
        startTime: kind === 1 ? "08:00" : null,
        endTime: kind === 1 ? "17:30" : null,
      });
  });
  for (const d of companyDevices[C.BETA]) ekeys.push({ companyId: C.BETA, userId: 4, deviceId: d, accessType: "full_access", isNeverEnd: true, isAllDay: true });
  add(
    chunkedInserts(
      db,
      schema.ekeyAssignments,
      ekeys.map((k) => ({ ...k, timeZoneId: k.accessType === "full_access" ? null : sqlId(tzId(k.companyId === C.BETA ? "Europe/Berlin" : "Europe/Madrid")) })),
    ),
  );

  // Company settings, scheduled-open hours and fob programmers.
  for (const [companyId, zone] of [
    [C.ROOT, "UTC"],
    [C.RSL1, "America/New_York"],
    [C.ACME, "Europe/Madrid"],
    [C.BETA, "Europe/Berlin"],
  ] as const) {
    statements.push(
      db.insert(schema.companySettings).values({
        companyId,
        defaultTimeZoneId: sqlId(tzId(zone)),
        scheduleOpen: companyId === C.ACME,
        fpi: companyId === C.ACME,
        passwordResetSecurity: companyId === C.ACME ? "admin" : "email",
        passwordResetPhone: companyId === C.ACME ? "+15550000003" : "",
      }),
    );
  }
  add(
    chunkedInserts(
      db,
      schema.scheduleOpenDays,
      [0, 1, 2, 3, 4, 5, 6].map((d) => ({ companyId: C.ACME, day: d, openWholeDay: d < 5, openTime: d < 5 ? "08:00" : "", closeTime: d < 5 ? "18:00" : "" })),
    ),
  );
  add(
    chunkedInserts(db, schema.scheduleOpenExceptions, [
      { companyId: C.ACME, date: dates.christmas, openWholeDay: false },
      { companyId: C.ACME, date: dates.newYearsEve, openWholeDay: true, openTime: "08:00", closeTime: "13:00" },
    ]),
  );
  add(
    chunkedInserts(db, schema.fobProgrammers, [
      { companyId: C.ACME, displayName: "Reception Programmer", isAssigned: true },
      { companyId: C.ACME, displayName: "Security Desk Programmer" },
      { companyId: C.ACME, displayName: "Facilities Programmer" },
      { companyId: C.BETA, displayName: "Lab Programmer" },
    ]),
  );

  // Activity: logins, admin changes and a month of door traffic.
  const activity: (typeof schema.activityLogs.$inferInsert)[] = [];
  const doorEvents = ["Access Granted", "Access Denied", "Door Opened", "Door Closed", "Sensor 1 Open", "Sensor 1 Closed", "Low Battery", "Unlocked With App"];
  for (const [companyId, n] of [
    [C.ACME, 320],
    [C.BETA, 60],
  ] as const) {
    for (let i = 0; i < n; i++) {
      const name = pick(doorEvents);
      const device = pick(companyDevices[companyId]);
      const user = pick(companyUsers[companyId]);
      activity.push({
        companyId,
        activityTypeId: sqlId(`(select id from activity_types where name = '${name}')`),
        operationType: name === "Unlocked With App" ? "App" : "Device",
        targetDeviceId: device,
        targetUserId: name.startsWith("Access") || name === "Unlocked With App" ? user : null,
        summary: name,
        detailsJson: JSON.stringify({ source: "demo" }),
        activityTimestamp: now - Math.floor(rand() * 30 * day),
      });
    }
    activity.push({
      companyId,
      activityTypeId: sqlId(`(select id from activity_types where name = 'Device Group Created')`),
      operationType: "Admin",
      createdByUserId: companyUsers[companyId][0],
      targetDeviceGroupId: companyId === C.ACME ? 1 : 5,
      summary: "Device Group Created",
      activityTimestamp: dates.groupCreatedAt,
    });
  }
  add(chunkedInserts(db, schema.activityLogs, activity));
  add([db.run(sql.raw(HISTORY_ALERTED))]);

  // Alerts, support tickets, FAQs.
  add(
    chunkedInserts(db, schema.alerts, [
      {
        id: 1,
        companyId: C.ACME,
        name: "Server room after hours",
        activityTypeId: sqlId(`(select id from activity_types where name = 'Access Granted')`),
        schedule: "custom",
        startDate: isoDay(now, -323),
        isNeverEnd: true,
        days: "1111111",
        isAllDay: false,
        startTime: "20:00",
        endTime: "07:00",
        timeZoneId: sqlId(tzId("Europe/Madrid")),
      },
      { id: 2, companyId: C.ACME, name: "Low battery", activityTypeId: sqlId(`(select id from activity_types where name = 'Low Battery')`), schedule: "any" },
      { id: 3, companyId: C.BETA, name: "Forced doors", activityTypeId: sqlId(`(select id from activity_types where name = 'Door Forced Open')`), schedule: "any" },
    ]),
  );
  add(
    chunkedInserts(db, schema.alertActivityTypes, [
      { alertId: 1, companyId: C.ACME, activityTypeId: sqlId(`(select id from activity_types where name = 'Access Granted')`) },
      { alertId: 2, companyId: C.ACME, activityTypeId: sqlId(`(select id from activity_types where name = 'Low Battery')`) },
      { alertId: 3, companyId: C.BETA, activityTypeId: sqlId(`(select id from activity_types where name = 'Door Forced Open')`) },
    ]),
  );
  add(
    chunkedInserts(db, schema.alertTargets, [
      { alertId: 1, companyId: C.ACME, kind: "device", refId: 3 },
      { alertId: 1, companyId: C.ACME, kind: "target_user", refId: null },
      { alertId: 2, companyId: C.ACME, kind: "device", refId: null },
      { alertId: 3, companyId: C.BETA, kind: "device", refId: null },
    ]),
  );
  add(
    chunkedInserts(db, schema.alertRecipients, [
      { alertId: 1, companyId: C.ACME, userId: 3, email: "admin@acme.example" },
      { alertId: 2, companyId: C.ACME, email: "facilities@acme.example" },
      { alertId: 3, companyId: C.BETA, userId: 4, email: "admin@beta.example" },
    ]),
  );
  const tickets = [
    {
      id: 1,
      companyId: C.ACME,
      ticketNumber: "T-100001",
      userId: 12,
      brand: "Samsung",
      phoneModel: "Galaxy S24",
      softwareVersion: "Android 15",
      appVersion: "4.2.0",
      latitude: 40.4168,
      longitude: -3.7038,
    },
    {
      id: 2,
      companyId: C.ACME,
      ticketNumber: "T-100002",
      userId: 13,
      brand: "Apple",
      phoneModel: "iPhone 16",
      softwareVersion: "iOS 19",
      appVersion: "4.2.1",
      ticketMode: 0,
      bluetoothStatus: "Off",
      latitude: 200,
      longitude: 10,
    },
    {
      id: 3,
      companyId: C.BETA,
      ticketNumber: "T-100003",
      userId: 4,
      brand: "Google",
      phoneModel: "Pixel 9",
      softwareVersion: "Android 15",
      appVersion: "4.1.9",
      latitude: 52.52,
      longitude: 13.405,
    },
  ];
  add(
    chunkedInserts(
      db,
      schema.supportTickets,
      tickets.map((t, i) => ({
        ...t,
        sentinelDateTime: now - (i + 1) * 3600_000,
        reportingDateTime: now - (i + 1) * 3600_000 + 42_000,
        devicesDetails: JSON.stringify({
          "1": { full_name: "Main Entrance", prefix: "AB", visible: true, device: true, sentinel: false },
          "2": { full_name: "", prefix: "BL", visible: false, device: false, sentinel: true },
        }),
        createdAt: now - (i + 1) * day,
      })),
    ),
  );
  add(
    chunkedInserts(db, schema.supportTicketNotes, [
      { companyId: C.ACME, ticketId: 1, userId: 3, note: "Asked the user to re-enable Bluetooth.", createdAt: now - day / 2 },
      { companyId: C.BETA, ticketId: 3, userId: 4, note: "Battery replaced.", createdAt: now - day / 3 },
    ]),
  );
  add(
    chunkedInserts(db, schema.faqs, [
      { language: "en", question: "How do I add a user?", answer: "Open Users, choose Add User, fill in the form and save.", sortOrder: 1 },
      { language: "en", question: "Why can't a user open a door?", answer: "Check the user's e-keys: dates, weekdays, times and time zone.", sortOrder: 2 },
      { language: "en", question: "How are scheduled open hours used?", answer: "Doors with scheduled open stay unlocked during the company's hours.", sortOrder: 3 },
      { language: "es", question: "¿Cómo añado un usuario?", answer: "Abra Usuarios, elija Añadir usuario, complete el formulario y guarde.", sortOrder: 1 },
      { language: "es", question: "¿Por qué un usuario no puede abrir una puerta?", answer: "Revise sus llaves electrónicas: fechas, días, horas y zona horaria.", sortOrder: 2 },
      {
        language: "es",
        question: "¿Cómo se usa el horario de apertura programada?",
        answer: "Las puertas con apertura programada quedan abiertas en el horario de la empresa.",
        sortOrder: 3,
      },
    ]),
  );

  // Billing, requests, mailer.
  add(
    chunkedInserts(db, schema.invoices, [
      {
        id: 1,
        companyId: C.RSL1,
        customerCompanyId: C.ACME,
        invoiceNum: "INV-2026-001",
        dueDate: isoDay(now, 25),
        notes: "Annual subscription",
        amountCents: 240000,
        discountCents: 0,
        totalCents: 240000,
        createdAt: now - 20 * day,
      },
      {
        id: 2,
        companyId: C.RSL1,
        customerCompanyId: C.ACME,
        invoiceNum: "INV-2026-002",
        dueDate: isoDay(now, 56),
        notes: "Extra boards",
        amountCents: 60000,
        discountCents: 9000,
        totalCents: 51000,
        createdAt: now - 5 * day,
      },
      {
        id: 3,
        companyId: C.ROOT,
        customerCompanyId: C.RSL1,
        invoiceNum: "INV-2026-101",
        dueDate: isoDay(now, 41),
        notes: "Stock order",
        amountCents: 1000000,
        discountCents: 150000,
        totalCents: 850000,
        status: "paid",
        createdAt: now - 30 * day,
      },
      {
        id: 4,
        companyId: C.RSL1,
        customerCompanyId: C.ACME,
        invoiceNum: "INV-2026-003",
        dueDate: isoDay(now, 87),
        notes: "Locks for the second floor, with installation",
        amountCents: 145000,
        discountCents: 28800,
        totalCents: 116200,
        createdAt: now - 2 * day,
      },
    ]),
  );
  add(
    chunkedInserts(db, schema.invoiceLineItems, [
      { invoiceId: 1, companyId: C.RSL1, name: "Subscription", description: "12 boards, 1 year", qty: 12, priceCents: 20000, pricePerCents: 20000, totalCents: 240000 },
      { invoiceId: 2, companyId: C.RSL1, name: "Access Board", description: "AB-100", qty: 3, priceCents: 20000, discountBp: 1500, pricePerCents: 17000, totalCents: 51000 },
      {
        invoiceId: 3,
        companyId: C.ROOT,
        name: "Access Board",
        description: "AB-100 stock",
        qty: 50,
        priceCents: 20000,
        discountBp: 1500,
        pricePerCents: 17000,
        totalCents: 850000,
      },
      { invoiceId: 4, companyId: C.RSL1, name: "Bluetooth Lock", description: "BL-1", qty: 10, priceCents: 12000, discountBp: 2400, pricePerCents: 9120, totalCents: 91200 },
      { invoiceId: 4, companyId: C.RSL1, name: "Installation", description: "On-site setup", qty: 1, priceCents: 25000, pricePerCents: 25000, totalCents: 25000 },
    ]),
  );
  add(
    chunkedInserts(db, schema.companyRequests, [
      {
        companyId: C.RSL1,
        pocUserId: 2,
        companyName: "Gamma Hotels",
        billingTerm: 1,
        pocFirstName: "Gina",
        pocLastName: "Gamma",
        pocEmail: "gina@gamma.example",
        pocPhoneNumber: "+15550000010",
      },
      {
        companyId: C.RSL1,
        pocUserId: 2,
        companyName: "Delta Schools",
        billingTerm: 3,
        pocFirstName: "Dan",
        pocLastName: "Delta",
        pocEmail: "dan@delta.example",
        pocPhoneNumber: "+15550000011",
      },
    ]),
  );
  add(chunkedInserts(db, schema.mailerConfigs, [{ companyId: null, hostName: "127.0.0.1", port: smtpPort, userName: "console", userPassword: "local-only" }]));
  // A webhook endpoint of ACME's, disabled (nothing is ever sent to it), so its pages have a record to show.
  // Its secret is stored plain, as rows from before encryption are; the console seals the ones it makes.
  add(
    chunkedInserts(db, schema.webhookEndpoints, [
      {
        companyId: C.ACME,
        url: "https://hooks.acme.example/keyless",
        description: "Demo receiver (disabled)",
        eventTypes: JSON.stringify(["access.denied", "door.forced_open", "alert.fired"]),
        enabled: false,
        secret: "whsec_ZGVtby1vbmx5LXdlYmhvb2stc2VjcmV0LWFjbWUtMDE=",
        createdAt: now - 86_400_000,
        updatedAt: now - 86_400_000,
      },
    ]),
  );

  // An ACME holiday calendar no key follows yet (nothing it holds changes a decision), so a new admin sees one.
  const year = new Date(now).getUTCFullYear();
  add(chunkedInserts(db, schema.holidayCalendars, [{ id: 1, companyId: C.ACME, name: "Office holidays", createdAt: now - 86_400_000, updatedAt: now - 86_400_000 }]));
  add(
    chunkedInserts(db, schema.holidayDates, [
      { companyId: C.ACME, calendarId: 1, date: `${year}-12-24`, name: "Christmas Eve", closeTime: "14:00" },
      { companyId: C.ACME, calendarId: 1, date: `${year}-12-25`, name: "Christmas Day" },
      { companyId: C.ACME, calendarId: 1, date: `${year + 1}-01-01`, name: "New Year's Day" },
    ]),
  );
  // A BETA custom field for its users (decision 0095), optional and out of the list, so its pages have a record.
  add(
    chunkedInserts(db, schema.customFields, [
      {
        companyId: C.BETA,
        key: "employee_number",
        label: "Employee number",
        type: "text",
        required: false,
        showInList: false,
        createdAt: now - 86_400_000,
        updatedAt: now - 86_400_000,
      },
    ]),
  );
  // An ACME lockdown plan, never started, so a new admin sees what one looks like and its pages have a record.
  add(
    chunkedInserts(db, schema.lockdownPlans, [
      { companyId: C.ACME, name: "Whole site lockdown", mode: "lockdown", scope: "company", durationMinutes: 60, createdAt: now - 86_400_000, updatedAt: now - 86_400_000 },
    ]),
  );

  await runBatches(db, statements);
  return true;
}

/** A subquery standing in for an integer id column (drizzle types it as the column's type). */
function sqlId(subquery: string): number {
  return sql.raw(subquery) as unknown as number;
}
