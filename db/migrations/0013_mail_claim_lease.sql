-- A claimed outbox row is leased to the drain sending it, so a concurrent drain never sends it twice.
ALTER TABLE mail_outbox ADD COLUMN claimed_until integer;
