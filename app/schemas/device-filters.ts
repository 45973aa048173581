/**
 * The /devices list's filters, as URL params. Lenient like the table params: a value that does not
 * parse is ignored (the list shows unfiltered), never an error.
 */
import { z } from "zod";

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const deviceFilterFields = {
  /** name (full or display) or serial number, a part of it */
  q: z.string().trim().min(1).max(100),
  /** device type id */
  type: id,
  /** device group id */
  group: id,
  /** "never": no gateway ever reported the board */
  online: z.enum(["1", "0", "never"]),
  battery: z.enum(["low", "ok"]),
  door: z.enum(["open", "closed"]),
  /** firmware differs from the active release of the device's type, or an update is under way */
  firmware: z.enum(["pending"]),
  /** held open by the company's scheduled-open hours at this moment */
  schedule: z.enum(["open"]),
};
export type DeviceFilterKey = keyof typeof deviceFilterFields;
export const DEVICE_FILTER_KEYS = Object.keys(deviceFilterFields) as DeviceFilterKey[];

export type DeviceFilters = { [K in DeviceFilterKey]?: z.infer<(typeof deviceFilterFields)[K]> };

export function parseDeviceFilters(params: URLSearchParams): DeviceFilters {
  const out: Record<string, unknown> = {};
  for (const key of DEVICE_FILTER_KEYS) {
    const parsed = deviceFilterFields[key].safeParse(params.get(key) ?? undefined);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as DeviceFilters;
}
