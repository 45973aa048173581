import { z } from "zod";
import { parseCsv, unneutralised } from "~/utils/csv";

/**
 * Device stock, transfer, registration and configuration (spec part 2 §3, §4, §5 Transfer; part 1
 * device texts). One schema per form, shared by the pages and the admin API; messages are the spec's
 * English texts, translated in the `lifecycle` namespace.
 */
export const LIFECYCLE_MSG = {
  transferred: "Stock transferred successfully",
  shippingRequired: "Required Shipping Date",
  termRequired: "Required Subscription Term",
  shippingPast: "The shipping date cannot be in the past",
  noDevices: "Select at least one device to transfer",
  stockToEc: "An end consumer company cannot receive stock",
  notChild: "The provided company code is invalid",
  notInStock: "This device does not belong to your company",
  invalidSerial: "Invalid Serial Number",
  unterminatedQuote: "A quoted cell is never closed",
  exists: "Device configuration already exists",
  badType: "Invalid device type",
  registered: "Devices registered",
  notYours: "This device does not belong to your company",
  configNotFound: "Device configuration could not be found",
  configured: "Device configured successfully",
  rotated: "Device secret rotated successfully",
  removeConfirm: "you must enter the device's display name to remove the configuration",
  removed: "Device configuration removed successfully",
  retired: "Device retired successfully",
  // A guarded write that moved nothing: the device changed between the checks and the write.
  notAdded: "Device configuration was not added successfully",
  updateFailed: "Error while updating",
  fullNameRequired: "Required full name",
  displayNameRequired: "Required display name",
  lowBattery: "coin cell battery is low",
  badLockType: "Choose a lock type from the list",
  lockTypeRequired: "Choose the door's lock type",
  settingsSaved: "Device settings saved",
  heldOpenRange: "Held-open time must be a whole number of seconds from 5 to 3600",
} as const;

/** The held-open threshold's bounds, in seconds (decision 0076). */
export const HELD_OPEN_MIN = 5;
export const HELD_OPEN_MAX = 3600;

/** The lock types a door can have; the stored value is this English name, shown translated. */
export const LOCK_TYPES = ["Electric Strike", "Magnetic Lock", "Deadbolt", "Mortise Lock", "Motor Lock"] as const;

export const SUBSCRIPTION_TERMS = [1, 2, 3] as const;
export const MAX_TRANSFER = 500;
export const MAX_REGISTER_ROWS = 500;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (v: string) => isoDate.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

/** Company references: the numeric id or the 4-character code, whichever the caller holds. */
export const companyRef = z.union([z.number().int().positive(), z.string().trim().min(1).max(12)]);

/**
 * POST company/transferDevices. `today` (YYYY-MM-DD) is the caller's date, so "not in the past" is
 * checked against the clock the server is given, never the machine's.
 */
export function transferSchema(today: string) {
  return z
    .object({
      fromCompany: companyRef.optional(),
      toCompany: companyRef,
      transferDevices: z
        .array(z.coerce.number().int().positive(), { required_error: LIFECYCLE_MSG.noDevices, invalid_type_error: LIFECYCLE_MSG.noDevices })
        .min(1, LIFECYCLE_MSG.noDevices)
        .max(MAX_TRANSFER),
      status: z.enum(["stock", "unconfigured"]).default("unconfigured"),
      shippingDate: z
        .string()
        .trim()
        .max(10)
        .nullish()
        .transform((v) => v || null),
      subscriptionTerm: z
        .union([z.number(), z.string().trim().max(2)])
        .nullish()
        .transform((v) => (v === "" || v == null ? null : Number(v))),
    })
    .superRefine((v, ctx) => {
      if (v.status === "stock") return;
      if (!v.shippingDate) ctx.addIssue({ code: "custom", path: ["shippingDate"], message: LIFECYCLE_MSG.shippingRequired });
      else if (!validDate(v.shippingDate)) ctx.addIssue({ code: "custom", path: ["shippingDate"], message: LIFECYCLE_MSG.shippingRequired });
      else if (v.shippingDate < today) ctx.addIssue({ code: "custom", path: ["shippingDate"], message: LIFECYCLE_MSG.shippingPast });
      if (v.subscriptionTerm == null || !SUBSCRIPTION_TERMS.includes(v.subscriptionTerm as 1 | 2 | 3))
        ctx.addIssue({ code: "custom", path: ["subscriptionTerm"], message: LIFECYCLE_MSG.termRequired });
    })
    .transform((v) => (v.status === "stock" ? { ...v, shippingDate: null, subscriptionTerm: null } : v));
}
export type TransferInput = z.output<ReturnType<typeof transferSchema>>;

/** Serial labels: letters, digits and dashes, 4 to 32 characters (stored upper case). */
export const SERIAL_RE = /^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$/;
export const normalizeSerial = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : "");

/** One board to register: its two serial labels and its device type (code or name). */
export const registerRowSchema = z.object({
  serialFront: z.string().max(64).optional(),
  serialBack: z.string().max(64).optional(),
  deviceType: z.string().max(100).optional(),
});
export type RegisterRow = z.output<typeof registerRowSchema>;

/** POST device/registerDevices: rows as JSON, or the CSV text (`serial_front,serial_back,device_type`). */
export const registerSchema = z
  .object({
    companyId: companyRef,
    devices: z.array(registerRowSchema).max(MAX_REGISTER_ROWS).optional(),
    csv: z.string().max(100_000).optional(),
  })
  .refine((v) => (v.devices?.length ?? 0) > 0 || !!v.csv?.trim(), { message: LIFECYCLE_MSG.invalidSerial, path: ["devices"] });

/** The register page's form: the target stock, and either one board or a CSV. */
export const registerFormSchema = z
  .object({
    companyId: z.coerce.number({ invalid_type_error: "Required company" }).int().positive("Required company"),
    serialFront: z.string().trim().max(64).optional(),
    serialBack: z.string().trim().max(64).optional(),
    deviceType: z.string().trim().max(100).optional(),
    csv: z.string().max(100_000).optional(),
  })
  .refine((v) => !!v.csv?.trim() || !!v.serialFront || !!v.serialBack, { message: LIFECYCLE_MSG.invalidSerial, path: ["serialFront"] });

/** The registration CSV's columns, in order; the devices export writes them (decision 0089). */
export const REGISTER_CSV_COLUMNS = ["serial_front", "serial_back", "device_type"] as const;

/**
 * Reads the registration CSV (`parseCsv`: quoted cells, `,` `;` or tab, BOM): one board a record,
 * `serial_front,serial_back,device_type`; a first record naming the columns is skipped. The apostrophe
 * the devices export puts before a cell a spreadsheet would run as a formula is dropped.
 */
export function parseRegisterCsv(text: string): { ok: true; rows: RegisterRow[] } | { ok: false } {
  const parsed = parseCsv(text);
  if (!parsed.ok) return { ok: false };
  const records = parsed.records.map((r) => r.cells.map((c) => unneutralised(c.trim())));
  if (records.length && /serial/i.test(records[0].join(" "))) records.shift();
  return { ok: true, rows: records.map(([serialFront = "", serialBack = "", deviceType = ""]) => ({ serialFront, serialBack, deviceType })) };
}

const text = (message: string, max = 100) => z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max);
const optionalInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim().max(6)])
    .nullish()
    .transform((v) => (v === "" || v == null ? null : Number(v)))
    .refine((v) => v == null || (Number.isInteger(v) && v >= min && v <= max), `Must be a whole number from ${min} to ${max}`);
const flag = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false", "on", ""])])
  .nullish()
  .transform((v) => v === true || v === "1" || v === "true" || v === "on");

/**
 * A device's names and the settings /deviceDetails shows: configuring an unconfigured device, and
 * editing a configured one's settings, post the same form. Lock type is one of `LOCK_TYPES` or none.
 */
export const configureSchema = z
  .object({
    id: z.coerce.number().int().positive(),
    fullName: text(LIFECYCLE_MSG.fullNameRequired),
    displayName: text(LIFECYCLE_MSG.displayNameRequired, 50),
    lockType: z
      .string({ invalid_type_error: LIFECYCLE_MSG.badLockType })
      .trim()
      .default("")
      .refine((v) => v === "" || (LOCK_TYPES as readonly string[]).includes(v), LIFECYCLE_MSG.badLockType),
    relockTrigger: z.enum(["Timer", "Door Close"]).default("Timer"),
    relockTimer: optionalInt(1, 3600),
    triggerMode: z.string().trim().max(50).default(""),
    manualLock: flag,
    bluetoothPowerLevel: optionalInt(1, 5).transform((v) => v ?? 3),
    dnortTime: optionalInt(1, 3600),
    sensor1OpenName: z.string().trim().max(50).default(""),
    sensor1CloseName: z.string().trim().max(50).default(""),
    sensor2OpenName: z.string().trim().max(50).default(""),
    sensor2CloseName: z.string().trim().max(50).default(""),
    // Door alarms (decision 0076). Left out, they stay as they are (a new device: on, 30 s); an empty
    // threshold turns held-open alarms off. The form always posts both.
    heldOpenSeconds: z
      .union([z.number(), z.string().trim().max(6)], { invalid_type_error: LIFECYCLE_MSG.heldOpenRange })
      .nullish()
      .transform((v) => (v === undefined ? undefined : v === "" || v === null ? null : Number(v)))
      .refine((v) => v == null || (Number.isInteger(v) && v >= HELD_OPEN_MIN && v <= HELD_OPEN_MAX), LIFECYCLE_MSG.heldOpenRange),
    forcedAlarm: z
      .union([z.boolean(), z.enum(["1", "0"])])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === true || v === "1")),
  })
  .transform((v) => (v.relockTrigger === "Timer" ? { ...v, relockTimer: v.relockTimer ?? 5, dnortTime: null } : { ...v, relockTimer: null }));
export type ConfigureInput = z.output<typeof configureSchema>;

/**
 * The console's configure form: a new door's lock type is a choice the admin makes, never left unset
 * without noticing (the spec names no default; the admin API keeps it optional, as before).
 */
export const configureFormSchema = configureSchema.superRefine((v, ctx) => {
  if (v.lockType === "") ctx.addIssue({ code: "custom", path: ["lockType"], message: LIFECYCLE_MSG.lockTypeRequired });
});

export const deviceIdSchema = z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required") });

/** Removing a configuration: the user types the device's display name. */
export const removeConfigurationSchema = deviceIdSchema.extend({
  displayName: z.string({ required_error: LIFECYCLE_MSG.removeConfirm, invalid_type_error: LIFECYCLE_MSG.removeConfirm }).trim().min(1, LIFECYCLE_MSG.removeConfirm).max(100),
});
