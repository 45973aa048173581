import { z } from "zod";
import { companyRef } from "~/schemas/device-lifecycle";
import { readsPostedStrings } from "~/utils/form-options";

/**
 * Cells (docs/decisions/0050-cells.md): moving a company to another cell, from the company's modify screen and
 * the admin API alike. Messages are English; the console translates them in the `companies` namespace.
 */
export const CELL_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

export const companyCellSchema = readsPostedStrings(
  z.object({
    // The company's id or its code (the spec's company_id), whichever the caller holds.
    id: companyRef,
    cell: z.string({ required_error: "Required cell", invalid_type_error: "Required cell" }).trim().min(1, "Required cell").regex(CELL_NAME_PATTERN, "The cell name is invalid"),
  }),
);
export type CompanyCellInput = z.output<typeof companyCellSchema>;

/** The API body: every field optional at the transport level (`company_id` names the company as `id` does); the service runs the schema above. */
export const setCompanyCellBody = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  company_id: z.union([z.number(), z.string()]).optional(),
  cell: z.string().optional(),
});
