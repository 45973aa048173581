-- Editing a configured device's settings in place (decision 0057): its audit name. The devices feed
-- trigger (0005) already fires on the full name and the re-lock time, the settings a gateway mirrors.
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Device Settings Changed', 'Admin', '001' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Device Settings Changed');
