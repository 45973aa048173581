-- Device search inside names and serials from an index (docs/decisions/0043-device-search-trigram.md).
-- `devices_search` is an FTS5 table with the trigram tokenizer: every three-character run of a device's
-- full name, display name and serial number is a term, so a quoted query of three or more characters is
-- answered as a substring match (case-folded) from the index instead of `LIKE '%…%'` over the rows.
-- Its rowid is the device id; the search joins back to `devices` for the company and `deleted_at`.
-- It keeps its own copy of the three columns, so a delete by rowid never depends on the old values.
CREATE VIRTUAL TABLE devices_search USING fts5(full_name, display_name, serial_number, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO devices_search (rowid, full_name, display_name, serial_number) SELECT id, full_name, display_name, serial_number FROM devices;
--> statement-breakpoint
CREATE TRIGGER devices_search_insert AFTER INSERT ON devices BEGIN
  INSERT INTO devices_search (rowid, full_name, display_name, serial_number) VALUES (new.id, new.full_name, new.display_name, new.serial_number);
END;
--> statement-breakpoint
CREATE TRIGGER devices_search_update AFTER UPDATE ON devices
WHEN old.id IS NOT new.id OR old.full_name IS NOT new.full_name OR old.display_name IS NOT new.display_name OR old.serial_number IS NOT new.serial_number BEGIN
  DELETE FROM devices_search WHERE rowid = old.id;
  INSERT INTO devices_search (rowid, full_name, display_name, serial_number) VALUES (new.id, new.full_name, new.display_name, new.serial_number);
END;
--> statement-breakpoint
CREATE TRIGGER devices_search_delete AFTER DELETE ON devices BEGIN
  DELETE FROM devices_search WHERE rowid = old.id;
END;
--> statement-breakpoint

-- Searches of one or two characters are too short for a trigram: they match the start of a name or
-- serial instead, as index ranges on (company_id, lower(column)) like the user search (0016).
CREATE INDEX IF NOT EXISTS devices_company_full_lc_idx ON devices (company_id, lower(full_name));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS devices_company_display_lc_idx ON devices (company_id, lower(display_name));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS devices_company_serial_lc_idx ON devices (company_id, lower(serial_number));
