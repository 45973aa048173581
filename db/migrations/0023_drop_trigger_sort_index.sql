-- The trigger sort walks the tallies like the name sorts (decision 0047): each operation type's rows
-- are one range of activity_company_op_ts_idx, read newest first, so the descending copy of that index
-- (0012) is no longer read, and every event wrote it.
DROP INDEX IF EXISTS `activity_company_op_ts_desc_idx`;
