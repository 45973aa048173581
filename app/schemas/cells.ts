import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";

/**
 * Cells (docs/decisions/0050-cells.md): moving a company to another cell, from the company's modify screen and
 * the admin API alike. Messages are English; the console translates them in the `companies` namespace.
 */
export const CELL_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

export const companyCellSchema = readsPostedStrings(
  z.object({
    id: z.coerce.number({ invalid_type_error: "id is required" }).int().positive("id is required"),
    cell: z.string({ required_error: "Required cell", invalid_type_error: "Required cell" }).trim().min(1, "Required cell").regex(CELL_NAME_PATTERN, "The cell name is invalid"),
  }),
);
export type CompanyCellInput = z.output<typeof companyCellSchema>;

/** The API body: both fields optional at the transport level; the service runs the schema above. */
export const setCompanyCellBody = z.object({ id: z.union([z.number(), z.string()]).optional(), cell: z.string().optional() });
