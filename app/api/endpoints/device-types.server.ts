import { z } from "zod";
import { deviceTypeBody, deviceTypeIdQuery, updateDeviceTypeBody } from "~/schemas/device-types";
import * as deviceTypes from "~/services/device-types.server";
import type { DeviceTypeDetails, DeviceTypeRow } from "~/services/device-types.server";
import { endpoint } from "../define.server";

const message = z.object({ message: z.string() });
const tag = "Device types";

/** A device type in the spec's names (decision 0017). */
const typePayload = (r: DeviceTypeDetails) => ({ id: r.id, device_code: r.deviceCode, device_type: r.deviceType });
const listPayload = (r: DeviceTypeRow) => ({ ...typePayload(r), devices: r.devices, createdAt: r.createdAt });

export const deviceTypeEndpoints = [
  endpoint({
    method: "GET",
    path: "/deviceType/getAllDeviceTypes",
    tag,
    summary: "Every device type, by code, with how many devices use it.",
    auth: "token",
    permission: { modules: ["deviceType", "company"] },
    response: z.object({ payload: z.array(z.object({ id: z.number(), device_code: z.string(), device_type: z.string(), devices: z.number(), createdAt: z.number() })) }),
    async handler({ db, auth }) {
      return { payload: (await deviceTypes.listDeviceTypes(db, auth)).rows.map(listPayload) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/deviceType/addDeviceType",
    tag,
    summary: "Adds a device type ('Device Type Created'); root company only. 400 'Device Code is Required' / 'Device Type is Required', 422 duplicate code.",
    auth: "token",
    permission: { modules: ["deviceType", "company"], action: "add", guard: (_, auth) => deviceTypes.assertMay(auth, "add") },
    body: deviceTypeBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await deviceTypes.addDeviceType(db, auth, body, now);
    },
  }),
  endpoint({
    method: "PUT",
    path: "/deviceType/updateDeviceType",
    tag,
    summary: "Saves a device type ('Device Type Modified'); root company only.",
    auth: "token",
    permission: { modules: ["deviceType", "company"], action: "modify", guard: (_, auth) => deviceTypes.assertMay(auth, "modify") },
    body: updateDeviceTypeBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await deviceTypes.updateDeviceType(db, auth, body.id, body, now);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/deviceType/deleteDeviceType",
    tag,
    summary: "Deletes a device type ('Removed Device Type'); 422 while devices or firmware use it.",
    auth: "token",
    permission: { modules: ["deviceType", "company"], action: "delete", guard: (_, auth) => deviceTypes.assertMay(auth, "delete") },
    query: deviceTypeIdQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await deviceTypes.deleteDeviceType(db, auth, query.id, now);
    },
  }),
  endpoint({
    method: "GET",
    path: "/deviceType/getDeviceTypeDetails",
    tag,
    summary: "One device type: device_code, device_type.",
    auth: "token",
    permission: { modules: ["deviceType", "company"] },
    query: deviceTypeIdQuery,
    response: z.object({ payload: z.object({ id: z.number(), device_code: z.string(), device_type: z.string() }) }),
    async handler({ db, auth, query }) {
      return { payload: typePayload(await deviceTypes.getDeviceTypeDetails(db, auth, query.id)) };
    },
  }),
];
