/**
 * The /devices list's filters, as URL params. Lenient like the table params: a value that does not
 * parse is ignored (the list shows unfiltered), never an error.
 */
import { z } from "zod";
import { filterKeys, parseUrlFilters, type UrlFilters } from "./url-filters";

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
export const DEVICE_FILTER_KEYS = filterKeys(deviceFilterFields);
export type DeviceFilters = UrlFilters<typeof deviceFilterFields>;
export const parseDeviceFilters = (params: URLSearchParams): DeviceFilters => parseUrlFilters(deviceFilterFields, params);
