import { z } from "zod";

/** Device types (spec part 2 §3 Device type, §5): the form shared by the pages and the admin API. */
export const DEVICE_TYPE_MSG = {
  codeRequired: "Device Code is Required",
  typeRequired: "Device Type is Required",
  created: "Device type created successfully",
  modified: "Device type modified successfully",
  removed: "Device type deleted successfully",
  notFound: "The provided device type is invalid",
  codeTaken: "This device code already exists",
  inUse: "This device type is in use by devices or firmware and cannot be deleted",
} as const;

const text = (message: string) => z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(100);

export const deviceTypeFormSchema = z.object({
  deviceCode: text(DEVICE_TYPE_MSG.codeRequired),
  deviceType: text(DEVICE_TYPE_MSG.typeRequired),
});
export type DeviceTypeInput = z.output<typeof deviceTypeFormSchema>;

export const deviceTypeBody = z.object({ deviceCode: z.string().optional(), deviceType: z.string().optional() });
export const updateDeviceTypeBody = deviceTypeBody.extend({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required") });
export const deviceTypeIdQuery = z.object({ id: z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required") });
