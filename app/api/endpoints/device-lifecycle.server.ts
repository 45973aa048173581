import { z, type ZodTypeAny } from "zod";
import {
  assertConfigurer,
  assertRegistrar,
  configureDevice,
  listStockOwners,
  registerDevices,
  removeDeviceConfiguration,
  retireDevice,
  rotateDeviceSecret,
  updateDeviceSettings,
  type IssuedSecret,
} from "~/services/device-lifecycle.server";
import type { Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";
import { endpoint, type ApiResult, type Permission } from "../define.server";

const tag = "Device lifecycle";
const idBody = z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required") });
const message = z.object({ message: z.string() });
const secretPayload = z.object({ message: z.string(), payload: z.object({ id: z.number(), serial_number: z.string(), display_name: z.string(), board_secret: z.string() }) });
const issued = (r: IssuedSecret) => ({ message: r.message, payload: { id: r.id, serial_number: r.serialNumber, display_name: r.displayName, board_secret: r.secret } });

/** Who configures a device (devices modify, or an installer): the settings calls and the secret's rotation. */
const configurer: Permission = { modules: "devices", guard: (db, auth) => assertConfigurer(db, auth, "modify") };

const loose = z.union([z.number(), z.string()]);
const looseFlag = z.union([z.boolean(), z.string()]);
/**
 * The settings' documented shape, loose on purpose: the service's `configureSchema` checks presence, lengths,
 * values and ranges with the form's messages; unknown fields pass through to it as before.
 */
const deviceSettingsBody = z
  .object({
    id: loose.optional().describe("The device (required; the service answers its own message when missing)"),
    fullName: z.string().optional(),
    displayName: z.string().optional(),
    lockType: z.string().optional().describe("Electric Strike, Magnetic Lock, Deadbolt, Mortise Lock, Motor Lock, or empty"),
    relockTrigger: z.enum(["Timer", "Door Close"]).optional(),
    relockTimer: loose.nullish().describe("Seconds, 1-3600 (Timer)"),
    triggerMode: z.string().optional(),
    manualLock: looseFlag.nullish(),
    bluetoothPowerLevel: loose.nullish().describe("1-5"),
    dnortTime: loose.nullish().describe("Seconds, 1-3600"),
    sensor1OpenName: z.string().optional(),
    sensor1CloseName: z.string().optional(),
    sensor2OpenName: z.string().optional(),
    sensor2CloseName: z.string().optional(),
    heldOpenSeconds: loose.nullish().describe("Held-open alarm threshold; empty or null turns it off"),
    forcedAlarm: looseFlag.optional(),
  })
  .passthrough();

/**
 * configureDevice and updateDeviceSettings take the same settings (the service's `configureSchema` checks
 * them, so a wrong field is the form's 400) from the same callers; only their answers differ.
 */
function deviceSettingsEndpoint(e: {
  path: string;
  summary: string;
  response: ZodTypeAny;
  run: (db: Db, auth: Auth, body: Record<string, unknown>, now: number) => Promise<ApiResult>;
}) {
  return endpoint({
    method: "POST",
    path: e.path,
    tag,
    summary: e.summary,
    auth: "token",
    permission: configurer,
    body: deviceSettingsBody,
    response: e.response,
    handler: ({ db, auth, body, now }) => e.run(db, auth, body, now),
  });
}

const reportRow = z.object({
  row: z.number(),
  serial_front: z.string(),
  serial_back: z.string(),
  device_type: z.string(),
  status: z.enum(["registered", "rejected"]),
  message: z.string(),
});

export const deviceLifecycleEndpoints = [
  endpoint({
    method: "GET",
    path: "/device/getStockOwners",
    tag,
    summary: "Root only: the companies whose stock boards can be registered into (the root itself and every live var company).",
    auth: "token",
    permission: { modules: "company", action: "add", guard: (_, auth) => assertRegistrar(auth) },
    response: z.object({ payload: z.array(z.object({ id: z.number(), company_name: z.string(), company_id: z.string(), company_type: z.string() })) }),
    async handler({ db, auth }) {
      return { payload: (await listStockOwners(db, auth)).map((r) => ({ id: r.id, company_name: r.name, company_id: r.code, company_type: r.type })) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/device/registerDevices",
    tag,
    summary:
      "Root only: registers boards as stock of companyId (id or code: the root itself or a var company). Either devices: [{serialFront, serialBack, deviceType}] or csv: lines of serial_front,serial_back,device_type (a header line is skipped). Each row is reported: 'Invalid Serial Number', 'Device configuration already exists' (a serial already known) or 'Invalid device type'. 422 with the report when no row was registered. 'Devices Registered'.",
    auth: "token",
    permission: { modules: "company", action: "add", guard: (_, auth) => assertRegistrar(auth) },
    body: z.object({
      companyId: z.union([z.number(), z.string().max(12)]).optional(),
      devices: z
        .array(z.object({ serialFront: z.string().max(64).optional(), serialBack: z.string().max(64).optional(), deviceType: z.string().max(100).optional() }))
        .max(500)
        .optional(),
      csv: z.string().max(100_000).optional(),
    }),
    response: z.object({ message: z.string(), payload: z.object({ registered: z.number(), rejected: z.number(), report: z.array(reportRow) }) }),
    async handler({ db, auth, body, now }) {
      const r = await registerDevices(db, auth, body, now);
      return {
        message: r.message,
        payload: {
          registered: r.registered,
          rejected: r.rejected,
          report: r.report.map((x) => ({
            row: x.row,
            serial_front: x.serialFront,
            serial_back: x.serialBack,
            device_type: x.deviceType,
            status: x.registered ? ("registered" as const) : ("rejected" as const),
            message: x.message,
          })),
        },
      };
    },
  }),
  deviceSettingsEndpoint({
    path: "/device/configureDevice",
    summary:
      "Configures an unconfigured device of the caller's company (devices modify, or an installer): fullName, displayName, lockType, relockTrigger (Timer or Door Close), relockTimer, triggerMode, manualLock, bluetoothPowerLevel (1-5), dnortTime, sensor names; lockType is one of Electric Strike, Magnetic Lock, Deadbolt, Mortise Lock, Motor Lock, or empty. Returns the board secret once (payload.board_secret); only its hash is kept. 'Device Configured'.",
    response: secretPayload,
    run: async (db, auth, body, now) => issued(await configureDevice(db, auth, body, now)),
  }),
  deviceSettingsEndpoint({
    path: "/device/updateDeviceSettings",
    summary:
      "Changes a configured device's names and settings (the configureDevice fields, all of them) without removing its configuration; its board secret stays. A new name or re-lock time reaches the gateways' change feed. 'Device Settings Changed'.",
    response: message,
    run: updateDeviceSettings,
  }),
  endpoint({
    method: "POST",
    path: "/device/rotateDeviceSecret",
    tag,
    summary:
      "Issues a new board secret for a configured device (returned once); the board holding the old one is disconnected at the gateways' next sync. 'Device Secret Rotated'.",
    auth: "token",
    permission: configurer,
    body: idBody,
    response: secretPayload,
    async handler({ db, auth, body, now }) {
      return issued(await rotateDeviceSecret(db, auth, body.id, now));
    },
  }),
  endpoint({
    method: "POST",
    path: "/device/removeDeviceConfiguration",
    tag,
    summary: "Returns a configured device to unconfigured (names and secret cleared) once displayName repeats the device's display name. 'Device Configuration Removed'.",
    auth: "token",
    permission: { modules: "devices", guard: (db, auth) => assertConfigurer(db, auth, "delete") },
    body: z.object({ id: z.unknown().optional(), displayName: z.unknown().optional() }),
    response: message,
    async handler({ db, auth, body, now }) {
      return await removeDeviceConfiguration(db, auth, body, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/device/retireDevice",
    tag,
    summary: "Retires an unconfigured or configured device (devices delete): it admits nobody, its board is disconnected and its history stays. 'Device Retired'.",
    auth: "token",
    permission: { modules: "devices", action: "delete" },
    body: idBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await retireDevice(db, auth, body.id, now);
    },
  }),
];
