-- A device transferred to a company of another cell (docs/decisions/0065-cells-managed-in-the-console.md):
-- the cell it left, and when, so that cell's gateway may still deliver the events it buffered for the
-- board, as for a company that moved (companies.previous_cell, companies.cell_moved_at). Written by hand.
ALTER TABLE devices ADD COLUMN previous_cell text;
--> statement-breakpoint
ALTER TABLE devices ADD COLUMN cell_moved_at integer;
