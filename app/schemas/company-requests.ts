import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { pocFormFields } from "./companies";
import { pocBodyFields, pocPhone } from "./phone";

/** Company requests (spec part 2 §3 Company request, §5 New company request, §9 renewal terms 1 or 3). */
export const RENEWAL_TERMS = [1, 3] as const;

const text = (message: string) => z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message);

export const companyRequestSchema = readsPostedStrings(
  pocPhone(
    z.object({
      companyName: text("Required company name").pipe(z.string().max(200)),
      companyType: z.literal("ec").default("ec"),
      renewalTerm: z
        .union([z.number(), z.string()], { required_error: "Required renewal term", invalid_type_error: "Required renewal term" })
        .transform((v) => Number(v))
        .refine((v) => (RENEWAL_TERMS as readonly number[]).includes(v), "Required renewal term"),
      ...pocFormFields,
    }),
  ),
);
export type CompanyRequestInput = z.output<typeof companyRequestSchema>;

export const createCompanyRequestBody = z
  .object({
    companyName: z.string().optional(),
    companyType: z.string().optional(),
    renewalTerm: z.union([z.number(), z.string()]).optional(),
    pocID: z.union([z.number(), z.string()]).optional(),
    ...pocBodyFields,
  })
  .passthrough();

export const requestIdQuery = z.object({ requestId: z.coerce.number({ invalid_type_error: "requestId must be a number" }).int().positive("requestId is required") });
export const rejectIdQuery = z.object({ id: z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required") });
