-- Cells (docs/decisions/0050-cells.md): each company belongs to one cell and each gateway serves one; a
-- gateway writes events and board presence only for the devices of its cell's companies. 'main' is the
-- one cell a platform starts with (and the only one locally).
ALTER TABLE companies ADD COLUMN cell text NOT NULL DEFAULT 'main';
--> statement-breakpoint
ALTER TABLE gateways ADD COLUMN cell text NOT NULL DEFAULT 'main';
