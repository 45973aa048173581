/**
 * Firmware (OTA) calls of the part 2 spec: POST /ota/addota (multipart), /ota/getallota,
 * /ota/deleteota, /ota/activeota, and GET /ota/download, the link each record's `zip_files` holds.
 * All need the `company` module (403 otherwise). Staged rollouts: ./firmware-rollouts.server.ts.
 */
import { z } from "zod";
import { addOtaSchema, listPage, otaIdSchema } from "~/schemas/firmware";
import { activateRelease, createRelease, deleteRelease, listReleases, releaseDownload, type ReleaseRow } from "~/services/firmware.server";
import { endpoint } from "../define.server";
import { rolloutEndpoints } from "./firmware-rollouts.server";

const otaRecord = z.object({
  id: z.number(),
  version: z.number(),
  version_label: z.string(),
  version_description: z.string(),
  zip_files: z.string().url(),
  file_name: z.string(),
  device_type: z.string().nullable(),
  size: z.number(),
  sha256: z.string(),
  is_active: z.boolean(),
  createdAt: z.string(),
});

/** The download call of this API, absolute so a client can follow it as it is (with its token). */
const downloadLink = (request: Request, id: number) => new URL(`/api/admin/ota/download?id=${id}`, request.url).href;

const toRecord = (request: Request, r: ReleaseRow): z.infer<typeof otaRecord> => ({
  id: r.id,
  version: Number(r.version),
  version_label: r.version,
  version_description: r.versionDescription,
  zip_files: downloadLink(request, r.id),
  file_name: r.fileName,
  device_type: r.deviceType,
  size: r.size,
  sha256: r.sha256,
  is_active: r.isActive,
  createdAt: new Date(r.createdAt).toISOString(),
});

export const otaEndpoints = [
  endpoint({
    method: "POST",
    path: "/ota/addota",
    tag: "Firmware",
    summary: "Uploads a firmware zip into R2 (size and SHA-256 computed by the Worker) and records the release, inactive.",
    auth: "token",
    permission: { modules: "company", action: "add" },
    multipart: true,
    body: addOtaSchema,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), size: z.number(), sha256: z.string() }) }),
    async handler({ db, env, auth, body, now }) {
      const payload = await createRelease(db, env.FIRMWARE, auth, body, now);
      return { message: "OTA added successfully", payload };
    },
  }),
  endpoint({
    method: "POST",
    path: "/ota/getallota",
    tag: "Firmware",
    summary: "Every firmware release, newest first (company_id is sent empty by the console and ignored).",
    auth: "token",
    permission: { modules: "company" },
    body: z.object({
      company_id: z.union([z.string(), z.number()]).optional(),
      page: listPage,
    }),
    response: z.object({ payload: z.array(otaRecord), total: z.number() }),
    async handler({ request, db, auth, body }) {
      const { rows, total } = await listReleases(db, auth, body.page ? { page: body.page } : { pageSize: 1000 });
      return { payload: rows.map((r) => toRecord(request, r)), extra: { total } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/ota/download",
    tag: "Firmware",
    summary: "The uploaded zip of a release, as an attachment (the link in each record's zip_files).",
    auth: "token",
    permission: { modules: "company" },
    file: "application/zip",
    query: otaIdSchema,
    async handler({ db, env, auth, query }) {
      return await releaseDownload(db, env.FIRMWARE, auth, query.id);
    },
  }),
  endpoint({
    method: "POST",
    path: "/ota/deleteota",
    tag: "Firmware",
    summary: "Removes a release; gateways stop offering it.",
    auth: "token",
    permission: { modules: "company", action: "delete" },
    body: otaIdSchema,
    response: z.object({ message: z.string() }),
    async handler({ db, env, auth, body, now }) {
      await deleteRelease(db, env.FIRMWARE, auth, body.id, now);
      return { message: "OTA deleted successfully" };
    },
  }),
  endpoint({
    method: "POST",
    path: "/ota/activeota",
    tag: "Firmware",
    summary: "Makes a release the active one of its device type (the others of that type become inactive).",
    auth: "token",
    permission: { modules: "company", action: "modify" },
    body: otaIdSchema,
    response: z.object({ message: z.string() }),
    async handler({ db, auth, body, now }) {
      await activateRelease(db, auth, body.id, now);
      return { message: "OTA activated successfully" };
    },
  }),
  ...rolloutEndpoints,
];
