-- Console single sign-on per company: OpenID Connect now, SAML 2.0 columns for the SAML work built beside it
-- (docs/decisions/0121-console-single-sign-on.md). Written by hand.

-- One row per company. The OIDC client secret is sealed (utils/at-rest.server.ts). sso_required stops password
-- sign-in for the company's users except break_glass_user_id (a super admin of the company). JIT creation makes
-- a console user (a sentinel with a role, never a super admin) for an unknown e-mail: the role of the user's
-- mapped groups (sso_group_roles), or jit_default_role_id when no group maps.
CREATE TABLE sso_settings (
  company_id integer PRIMARY KEY NOT NULL,
  protocol text NOT NULL DEFAULT 'oidc',
  enabled integer NOT NULL DEFAULT 0,
  oidc_issuer text NOT NULL DEFAULT '',
  oidc_client_id text NOT NULL DEFAULT '',
  oidc_client_secret text,
  oidc_scopes text NOT NULL DEFAULT 'openid email profile',
  oidc_groups_claim text NOT NULL DEFAULT 'groups',
  idp_entity_id text NOT NULL DEFAULT '',
  idp_sso_url text NOT NULL DEFAULT '',
  idp_slo_url text NOT NULL DEFAULT '',
  idp_certificate text NOT NULL DEFAULT '',
  want_encrypted integer NOT NULL DEFAULT 0,
  sso_required integer NOT NULL DEFAULT 0,
  break_glass_user_id integer,
  jit_enabled integer NOT NULL DEFAULT 0,
  jit_default_role_id integer,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer))
);
--> statement-breakpoint
-- An identity provider's group name → a role of the same company.
CREATE TABLE sso_group_roles (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  group_name text NOT NULL,
  role_id integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX sso_group_roles_company_group_uq ON sso_group_roles (company_id, group_name);
--> statement-breakpoint
-- A sign-in sent to the identity provider and not yet back: keyed by the SHA-256 of its state, spent once.
CREATE TABLE sso_sign_in_attempts (
  state_hash text PRIMARY KEY NOT NULL,
  company_id integer NOT NULL,
  protocol text NOT NULL,
  nonce text NOT NULL DEFAULT '',
  pkce_verifier text NOT NULL DEFAULT '',
  return_to text NOT NULL DEFAULT '/',
  expires_at integer NOT NULL,
  created_at integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX sso_sign_in_attempts_expiry_idx ON sso_sign_in_attempts (expires_at);
--> statement-breakpoint
-- Token and assertion ids already used (ID token jti or hash, SAML assertion ID), kept until they expire.
CREATE TABLE sso_used_ids (
  company_id integer NOT NULL,
  used_id text NOT NULL,
  expires_at integer NOT NULL,
  PRIMARY KEY (company_id, used_id)
);
--> statement-breakpoint
CREATE INDEX sso_used_ids_expiry_idx ON sso_used_ids (expires_at);
--> statement-breakpoint
-- The identity provider's subject of a console user, and whether the user was made by JIT creation.
CREATE TABLE sso_identities (
  company_id integer NOT NULL,
  protocol text NOT NULL,
  subject text NOT NULL,
  user_id integer NOT NULL,
  created_by_jit integer NOT NULL DEFAULT 0,
  created_at integer NOT NULL,
  PRIMARY KEY (company_id, protocol, subject)
);
--> statement-breakpoint
CREATE INDEX sso_identities_user_idx ON sso_identities (user_id);
--> statement-breakpoint
-- A console session opened by single sign-on: what single logout needs (the ID token for id_token_hint, or the
-- SAML NameID and SessionIndex).
CREATE TABLE sso_sessions (
  session_id text PRIMARY KEY NOT NULL,
  company_id integer NOT NULL,
  protocol text NOT NULL,
  id_token text,
  name_id text,
  session_index text,
  created_at integer NOT NULL
);
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Single Sign-On Login', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Single Sign-On Login');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Break-Glass Sign-In', 'Admin', '110', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Break-Glass Sign-In');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Single Sign-On Modified', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Single Sign-On Modified');
