import { z } from "zod";

/** One step of the activity-log backfill: the companies after `afterCompanyId`, at most `companies` of them. */
export const backfillSchema = z.object({
  afterCompanyId: z.coerce.number({ invalid_type_error: "afterCompanyId must be a number" }).int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  companies: z.coerce.number({ invalid_type_error: "companies must be a number" }).int().min(1).max(100).default(10),
});
export type BackfillInput = z.infer<typeof backfillSchema>;
