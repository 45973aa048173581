-- Erasing one person's activity on request records itself under this name (decision 0048), with the
-- number of entries erased and nothing of what they said.
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'User Activity Erased', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'User Activity Erased');
