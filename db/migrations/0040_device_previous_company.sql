-- A transferred device's previous owner (docs/decisions/0074-events-filed-by-board-time.md): beside the
-- cell it left and when (devices.previous_cell, cell_moved_at, migration 0036), the company it left, so
-- for a day its events from before the transfer go to that company's log. Written by hand.
ALTER TABLE devices ADD COLUMN previous_company_id integer;
