-- A device's recent transfers read from their own records (docs/decisions/0074-events-filed-by-board-time.md):
-- a device transferred twice within a day files its events under each company it passed through, so the
-- transfers are looked up by device. The previous owner kept on the device (migration 0040) named only the
-- last company it left; nothing reads it now. Written by hand.
CREATE INDEX device_transfer_items_device_idx ON device_transfer_items (device_id);
ALTER TABLE devices DROP COLUMN previous_company_id;
