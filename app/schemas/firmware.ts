/**
 * The OTA upload form (/addota and POST /api/admin/ota/addota): the spec's field names and messages.
 * Client-safe: the page checks the same rules before it starts an upload.
 */
import { z } from "zod";

export const MAX_FIRMWARE_BYTES = 25 * 1024 * 1024;

const isFile = (v: unknown): v is File => typeof File !== "undefined" && v instanceof File && v.size > 0;

export const addOtaSchema = z.object({
  version: z
    .string({ required_error: "Required version" })
    .trim()
    .min(1, "Required version")
    .max(32, "Version is too long")
    .regex(/^\d+(\.\d+)*$/, "Version must be numeric"),
  zip_file: z
    .custom<File>(isFile, "Required file")
    .refine((f) => /\.zip$/i.test(f.name), "Please choose a .zip file")
    .refine((f) => f.size <= MAX_FIRMWARE_BYTES, "The file is larger than 25 MB"),
  version_description: z.string().trim().max(500, "Description is too long").optional().default(""),
  /** Which boards get it; the spec's form has no such field, so it is optional in the API. */
  device_type_id: z
    .union([z.literal(""), z.coerce.number().int().positive()])
    .optional()
    .transform((v) => (v === "" || v === undefined ? null : v)),
});
export type AddOtaInput = z.infer<typeof addOtaSchema>;

export const otaIdSchema = z.object({ id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required") });

/** The page of a firmware list call of the admin API (releases, rollouts), from 1. */
export const listPage = z.coerce
  .number({ invalid_type_error: "page must be a number" })
  .int("page must be a whole number")
  .positive("page must be 1 or more")
  .max(100_000, "page is out of range")
  .optional();
