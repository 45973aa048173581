-- Billing (docs/decisions/0024-invoice-money.md). Written by hand; the drizzle meta snapshots are
-- not regenerated for it.

-- An invoice is open until it is paid (or voided); "overdue" is an open invoice past its due date,
-- derived when shown, never stored.
ALTER TABLE invoices ADD COLUMN status text NOT NULL DEFAULT 'open';
--> statement-breakpoint
CREATE INDEX invoices_company_idx ON invoices (company_id, created_at);
--> statement-breakpoint
-- A line's discount in basis points (1525 = 15.25 %), exact, instead of a floating percent.
ALTER TABLE invoice_line_items ADD COLUMN discount_bp integer NOT NULL DEFAULT 0;
--> statement-breakpoint
UPDATE invoice_line_items SET discount_bp = CAST(round(discount * 100) AS integer);
--> statement-breakpoint
ALTER TABLE invoice_line_items DROP COLUMN discount;
--> statement-breakpoint
-- The saved line a customer invoice's line re-bills (same quantity and MSRP), if any.
ALTER TABLE invoice_line_items ADD COLUMN source_line_id integer;
