-- Grants that name who may open the console (docs/decisions/0093-support-access.md). Written by hand.

-- The grantee's staff members a grant names. A grant with no rows here is open to every staff member of the
-- grantee who holds the fleet view; with rows, only to them.
CREATE TABLE support_grant_staff (
  grant_id integer NOT NULL,
  user_id integer NOT NULL,
  PRIMARY KEY (grant_id, user_id)
);
