import { z } from "zod";
import { DEVICE_FILTER_KEYS, parseDeviceFilters } from "~/schemas/device-filters";
import { REGISTER_CSV_COLUMNS } from "~/schemas/device-lifecycle";
import { deviceExportStream, deviceGroupExportStream, DEVICES_FILE, GROUP_CSV_COLUMNS, GROUPS_FILE } from "~/services/device-export.server";
import { csvAttachment } from "~/utils/http.server";
import { endpoint } from "../define.server";

/** Devices and device groups to CSV (decision 0089), as the users export: streamed, formula cells kept as text. */
const FORMULAS = "cells a spreadsheet would run as formulas start with an apostrophe (registerDevices drops it again)";

export const deviceExportEndpoints = [
  endpoint({
    method: "GET",
    path: "/device/exportDevices",
    tag: "Devices",
    summary: `The company's live devices (every state) as CSV in the columns registerDevices reads (${REGISTER_CSV_COLUMNS.join(", ")}; the type as its code, the serial number when a board has no front serial of its own), by id, streamed; ${FORMULAS}. The getDevices filters (q, type, group, online, battery, door, firmware, schedule) narrow it.`,
    auth: "token",
    permission: { modules: "devices" },
    file: "text/csv",
    query: z.object(Object.fromEntries(DEVICE_FILTER_KEYS.map((k) => [k, z.string().max(100).optional()]))),
    async handler({ db, core, auth, query, now }) {
      const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === "string"));
      return csvAttachment(await deviceExportStream(db, auth, parseDeviceFilters(search), now, core), DEVICES_FILE);
    },
  }),
  endpoint({
    method: "GET",
    path: "/deviceGroup/exportDeviceGroups",
    tag: "Device groups",
    summary: `The company's live device groups (deactivated ones included) as CSV, by id, streamed: ${GROUP_CSV_COLUMNS.join(", ")}. status is active or inactive; days are mon…sun joined by '|'; all_day is yes or no; start and end are HH:MM (empty when all day); time_zone is the IANA name; on_holidays is ignore, closed or holidayHours; doors are the group's device names (the serial number of one without a name) joined by '|', a '|' or '\\' inside a name written with a '\\' before it, as exportUsers' group_keys. ${FORMULAS}.`,
    auth: "token",
    permission: { modules: "device_group" },
    file: "text/csv",
    async handler({ db, auth }) {
      return csvAttachment(deviceGroupExportStream(db, auth), GROUPS_FILE);
    },
  }),
];
