-- /activityDetails builds its two sections from the activity type's templates (app/utils/activity-sections.ts:
-- field names, comma-separated). The first section names who and what the entry is about, as the type's alert
-- conditions already say (created-by user, target user, device); group changes name their group.
UPDATE activity_types SET first_section_info = 'date,trigger'
  || CASE WHEN substr(alert_conditions, 1, 1) = '1' THEN ',triggeredBy' ELSE '' END
  || CASE WHEN substr(alert_conditions, 2, 1) = '1' THEN ',user' ELSE '' END
  || CASE WHEN substr(alert_conditions, 3, 1) = '1' THEN ',device,deviceGroup' WHEN name LIKE '%Device Group%' THEN ',deviceGroup' ELSE '' END
WHERE first_section_info = '';
--> statement-breakpoint
-- Details: the summary; a refusal adds its reason and the next opening; what a phone or a board reports from a
-- place adds where.
UPDATE activity_types SET details_section_info = CASE
  WHEN name IN ('Access Denied', 'App Access Denied') THEN 'summary,reason,nextOpen,gps'
  WHEN type IN ('App', 'Sentinel') OR name = 'Location Reported' THEN 'summary,gps'
  ELSE 'summary' END
WHERE details_section_info = '';
