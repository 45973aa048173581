/**
 * Starting a board's firmware update from the phone app or the console (decision 0116): the body and
 * the refusals, shown on the phone and on the device's page. Client-safe.
 */
import { z } from "zod";

export const FIRMWARE_START_MSG = {
  deviceRequired: "deviceId is required",
  installerOnly: "Only installers may update firmware in this company",
  forced: "This company's boards update their firmware on their own",
  noRelease: "There is no firmware update for this door",
  upToDate: "This door already runs the newest firmware",
  started: "Firmware update started",
} as const;

export const firmwareStartSchema = z.object({
  deviceId: z.coerce.number({ invalid_type_error: FIRMWARE_START_MSG.deviceRequired }).int().positive(FIRMWARE_START_MSG.deviceRequired),
});
export type FirmwareStartInput = z.output<typeof firmwareStartSchema>;

/** Who may start an update under the company's "allowed to update firmware" setting. */
export const mayStartFirmware = (allowed: string | null | undefined, isInstaller: boolean) => allowed !== "Installer Only" || isInstaller;
