/**
 * The whole product's data model (both spec parts). Conventions:
 * - instants are epoch milliseconds (`integer`), calendar dates `YYYY-MM-DD`, wall times `HH:mm`;
 * - booleans are 0/1 integers (`mode: "boolean"`);
 * - every tenant-owned row carries `company_id`, and every list the spec filters has an index.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(cast(unixepoch('subsecond') * 1000 as integer))`;
const bool = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);
const createdAt = () => integer("created_at").notNull().default(now);
const updatedAt = () => integer("updated_at").notNull().default(now);

// ---------------------------------------------------------------- reference data

/** Permission modules a role can grant (seeded by a migration). */
export const permissionModules = sqliteTable("permission_modules", {
  key: text("key").primaryKey(),
  title: text("title").notNull(),
  sortOrder: integer("sort_order").notNull(),
});

/** IANA time zones offered in pickers (seeded by a migration). */
export const timeZones = sqliteTable("time_zones", {
  id: integer("id").primaryKey(),
  name: text("name").notNull().unique(),
  label: text("label").notNull(),
});

/** The catalogue of activity names the log and alerts use (seeded by a migration). */
export const activityTypes = sqliteTable("activity_types", {
  id: integer("id").primaryKey(),
  name: text("name").notNull().unique(),
  /** App, Sentinel, Device or Admin: the spec's operation types. */
  type: text("type").notNull(),
  /** Three 0/1 characters: created-by users, target users, devices required by an alert. */
  alertConditions: text("alert_conditions").notNull().default("000"),
  /** Which companies can have the event: every company, resellers and the platform, or the platform only (decision 0059). */
  audience: text("audience", { enum: ["company", "reseller", "platform"] })
    .notNull()
    .default("company"),
  firstSectionInfo: text("first_section_info").notNull().default(""),
  detailsSectionInfo: text("details_section_info").notNull().default(""),
});

// ---------------------------------------------------------------- companies and people

export const companies = sqliteTable(
  "companies",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The 4-character company ID people type at sign-in; stored upper case. */
    code: text("code").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: ["ec", "var", "oem", "root"] }).notNull(),
    parentId: integer("parent_id"),
    discountPercentage: real("discount_percentage").notNull().default(0),
    pocFirstName: text("poc_first_name").notNull().default(""),
    pocLastName: text("poc_last_name").notNull().default(""),
    pocEmail: text("poc_email").notNull().default(""),
    pocCountryCode: text("poc_country_code").notNull().default("001"),
    pocPhoneNumber: text("poc_phone_number").notNull().default(""),
    nextBillingDate: text("next_billing_date"),
    isDeactive: bool("is_deactive"),
    deletedAt: integer("deleted_at"),
    /** The gateway cell serving the company's doors (docs/decisions/0050-cells.md). */
    cell: text("cell").notNull().default("main"),
    /** The cell the company last left, and when: its gateway may still deliver buffered events for a while. */
    previousCell: text("previous_cell"),
    cellMovedAt: integer("cell_moved_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("companies_code_uq").on(t.code),
    /** Codes are unique case-insensitively (0006_platform.sql). */
    uniqueIndex("companies_code_nocase_uq").on(sql`upper(${t.code})`),
    index("companies_parent_idx").on(t.parentId, t.name),
    /** The name + e-mail pair is unique among live companies, case-insensitively (0006_platform.sql). */
    uniqueIndex("companies_name_email_uq")
      .on(sql`lower(${t.name})`, sql`lower(${t.pocEmail})`)
      .where(sql`deleted_at is null`),
  ],
);

export const roles = sqliteTable(
  "roles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    title: text("role_title").notNull(),
    description: text("role_description").notNull().default(""),
    permissionAll: bool("permission_all"),
    permissionAdd: bool("permission_add"),
    permissionModify: bool("permission_modify"),
    permissionView: bool("permission_view"),
    permissionDelete: bool("permission_delete"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("roles_company_title_uq").on(t.companyId, t.title)],
);

export const roleModules = sqliteTable(
  "role_modules",
  {
    roleId: integer("role_id").notNull(),
    companyId: integer("company_id").notNull(),
    moduleKey: text("module_key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.moduleKey] })],
);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    roleId: integer("role_id"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    displayName: text("display_name").notNull(),
    /** Stored lower case; sign-in and uniqueness compare case-insensitively. */
    email: text("email").notNull(),
    countryCode: text("country_code").notNull().default("001"),
    /** Digits only. */
    phoneNumber: text("phone_number").notNull().default(""),
    notes: text("notes").notNull().default(""),
    isSentinel: bool("is_sentinel"),
    isSuperAdmin: bool("is_super_admin"),
    isInstaller: bool("is_installer"),
    isFob: bool("is_fob"),
    isInactive: bool("is_inactive"),
    isSoInterrupt: integer("is_so_interrupt", { mode: "boolean" }).notNull().default(true),
    isFlagged: bool("is_flagged"),
    supportTicketId: integer("support_ticket_id"),
    accountSetupPending: bool("account_setup_pending"),
    /** `algorithm$params$salt$hash`; null until the invite is accepted. */
    passwordHash: text("password_hash"),
    passwordChangedAt: integer("password_changed_at"),
    /** Reset mode 'admin': a reset the user asked for that no super admin has approved yet (decision 0062). */
    passwordResetRequestedAt: integer("password_reset_requested_at"),
    /** Where sign-in codes go: 'email' or 'text' (the user's own choice, migration 0039). */
    twoFactorChannel: text("two_factor_channel", { enum: ["email", "text"] })
      .notNull()
      .default("email"),
    /** The phone bound to a single-device login; "forget device" clears it. */
    boundDeviceId: text("bound_device_id"),
    /** The directory's id for the person (SCIM `externalId`, migration 0045). */
    externalId: text("external_id"),
    /** The directory's login name (SCIM `userName`) when it is not the e-mail; null otherwise. */
    scimUserName: text("scim_user_name"),
    lastActivityAt: integer("last_activity_at"),
    deletedAt: integer("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_company_email_uq")
      .on(t.companyId, t.email)
      .where(sql`deleted_at is null`),
    index("users_company_phone_idx").on(t.companyId, t.phoneNumber),
    index("users_company_name_idx").on(t.companyId, t.isInactive, t.displayName),
    index("users_company_activity_idx").on(t.companyId, t.lastActivityAt),
    // Prefix search on lower-cased names (migration 0016, decision 0035).
    index("users_company_display_lc_idx").on(t.companyId, sql`lower(${t.displayName})`),
    index("users_company_first_lc_idx").on(t.companyId, sql`lower(${t.firstName})`),
    index("users_company_last_lc_idx").on(t.companyId, sql`lower(${t.lastName})`),
    index("users_role_idx").on(t.roleId),
    index("users_company_external_idx").on(t.companyId, t.externalId),
    index("users_company_scim_name_idx").on(t.companyId, sql`lower(${t.scimUserName})`),
  ],
);

/** Server-side sessions for the console (cookie) and the admin API (token). */
export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the secret the client holds; the secret itself is never stored. */
    id: text("id").primaryKey(),
    userId: integer("user_id").notNull(),
    companyId: integer("company_id").notNull(),
    /** web: console cookie; api: admin API token; mobile: the phone app's bearer token (/api/mobile). */
    kind: text("kind", { enum: ["web", "api", "mobile"] }).notNull(),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    ip: text("ip").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    /** Mobile sessions: the phone installation that signed in, and the language it asked for. */
    installationId: text("installation_id"),
    lang: text("lang"),
    /** A support session (decision 0093): the grant under which the user works inside the granting company. */
    supportGrantId: integer("support_grant_id"),
    /** The company's MFA policy covers the user, who has no authenticator app or passkey yet: enrolment pages only (migration 0068). */
    mfaEnrolmentOnly: bool("mfa_enrolment_only"),
  },
  (t) => [
    index("sessions_support_grant_idx").on(t.supportGrantId),
    index("sessions_user_idx").on(t.userId),
    index("sessions_expiry_idx").on(t.expiresAt),
    index("sessions_installation_idx").on(t.userId, t.installationId),
  ],
);

/** Support access a company grants an ancestor (its reseller, or the platform) for a while (decision 0093). */
export const supportGrants = sqliteTable(
  "support_grants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    granteeCompanyId: integer("grantee_company_id").notNull(),
    grantedByUserId: integer("granted_by_user_id").notNull(),
    reason: text("reason").notNull(),
    startsAt: integer("starts_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    revokedByUserId: integer("revoked_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("support_grants_company_idx").on(t.companyId, t.expiresAt), index("support_grants_grantee_idx").on(t.granteeCompanyId, t.expiresAt)],
);

/** The grantee's staff members a grant names (decision 0093); none: any staff member holding the fleet view. */
export const supportGrantStaff = sqliteTable(
  "support_grant_staff",
  {
    grantId: integer("grant_id").notNull(),
    userId: integer("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.grantId, t.userId] })],
);

/**
 * A company's API key for machines (decision 0075): the admin API with `Authorization: Bearer <key>`. Its
 * rights are modules plus actions in the role model, and at use never more than its creator's.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    name: text("name").notNull(),
    createdByUserId: integer("created_by_user_id").notNull(),
    /** Public and random: the key reads `kla_<prefix>_<secret>`; the prefix finds the row. */
    prefix: text("prefix").notNull(),
    /** The secret's keyed hash (app/utils/secret-hash.server.ts); the secret is shown once. */
    secretHash: text("secret_hash").notNull(),
    /** JSON array of module keys; view is implied. */
    modulesJson: text("modules_json").notNull().default("[]"),
    canAdd: bool("can_add"),
    canModify: bool("can_modify"),
    canDelete: bool("can_delete"),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    /** Coarse: written at most once a minute per key. */
    lastUsedAt: integer("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("api_keys_company_idx").on(t.companyId, t.createdAt), uniqueIndex("api_keys_prefix_uq").on(t.prefix)],
);

/**
 * A session that ended (a trigger on `sessions` writes it, migration 0032) and whose sign-out is not yet
 * recorded: the proof createActivityLogWithoutLogin asks for. Consumed by that call and by logout.
 */
export const endedSessions = sqliteTable(
  "ended_sessions",
  {
    /** The session's id: SHA-256 of the token its client held. */
    id: text("id").primaryKey(),
    userId: integer("user_id").notNull(),
    companyId: integer("company_id").notNull(),
    endedAt: integer("ended_at").notNull().default(now),
  },
  (t) => [index("ended_sessions_ended_idx").on(t.endedAt)],
);

/**
 * A phone installation's platform authenticator (WebAuthn), registered by the phone app: the console
 * verifies its assertions before it signs credentials for a company that requires biometrics
 * (docs/decisions/0039-biometric-claim.md). One per user and installation; "forget device" drops them.
 */
export const phoneAuthenticators = sqliteTable(
  "phone_authenticators",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    userId: integer("user_id").notNull(),
    installationId: text("installation_id").notNull(),
    /** The WebAuthn credential id, base64url. */
    credentialId: text("credential_id").notNull(),
    /** SubjectPublicKeyInfo (DER), base64url. */
    publicKey: text("public_key").notNull(),
    /** COSE algorithm: -7 ES256, -8 EdDSA (Ed25519), -257 RS256. */
    algorithm: integer("algorithm").notNull(),
    signCount: integer("sign_count").notNull().default(0),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [uniqueIndex("phone_authenticators_installation_idx").on(t.userId, t.installationId), index("phone_authenticators_company_idx").on(t.companyId)],
);

/** WebAuthn challenges issued to a mobile session: deleted when used, refused once expired. */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    challenge: text("challenge").primaryKey(),
    sessionId: text("session_id").notNull(),
    purpose: text("purpose", { enum: ["create", "get"] }).notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("webauthn_challenges_session_idx").on(t.sessionId)],
);

/** Failed sign-in counters, per account and per client address. */
export const loginThrottles = sqliteTable("login_throttles", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: integer("window_start").notNull(),
  lockedUntil: integer("locked_until"),
});

export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id").notNull(),
    companyId: integer("company_id").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    /** 'reset' (forgot password, an hour) or 'invite' (a new account, 7 days); decision 0055. */
    purpose: text("purpose", { enum: ["reset", "invite"] })
      .notNull()
      .default("reset"),
    /** Where the person is signed in once the password is chosen. */
    landsOn: text("lands_on", { enum: ["console", "phone"] })
      .notNull()
      .default("console"),
    /** Reset mode 'text': the hash of the code texted to the phone; the link needs it (decision 0062). */
    codeHash: text("code_hash"),
    codeAttempts: integer("code_attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("password_reset_user_idx").on(t.userId)],
);

export const twoFactorCodes = sqliteTable(
  "two_factor_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    companyId: integer("company_id").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("two_factor_user_idx").on(t.userId, t.createdAt)],
);

/** A console user's authenticator app (TOTP, migration 0065, decision 0120); the secret is sealed (utils/at-rest.server.ts). */
export const authenticatorApps = sqliteTable("authenticator_apps", {
  userId: integer("user_id").primaryKey(),
  companyId: integer("company_id").notNull(),
  secret: text("secret").notNull(),
  /** Null while enrolment waits for a first code: not asked for at sign-in. */
  confirmedAt: integer("confirmed_at"),
  /** The 30 s step of the last code accepted; that step and earlier ones are refused (replay). */
  lastStep: integer("last_step").notNull().default(0),
  createdAt: createdAt(),
});

/** Keyed hashes (utils/secret-hash.server.ts) of the recovery codes shown once at enrolment. */
export const authenticatorRecoveryCodes = sqliteTable(
  "authenticator_recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("authenticator_recovery_user_idx").on(t.userId)],
);

/** A company's single sign-on (migration 0066, decision 0121): OIDC, and SAML's columns; the client secret is sealed. */
export const ssoSettings = sqliteTable("sso_settings", {
  companyId: integer("company_id").primaryKey(),
  protocol: text("protocol", { enum: ["oidc", "saml"] })
    .notNull()
    .default("oidc"),
  enabled: bool("enabled"),
  oidcIssuer: text("oidc_issuer").notNull().default(""),
  oidcClientId: text("oidc_client_id").notNull().default(""),
  oidcClientSecret: text("oidc_client_secret"),
  oidcScopes: text("oidc_scopes").notNull().default("openid email profile"),
  oidcGroupsClaim: text("oidc_groups_claim").notNull().default("groups"),
  idpEntityId: text("idp_entity_id").notNull().default(""),
  idpSsoUrl: text("idp_sso_url").notNull().default(""),
  idpSloUrl: text("idp_slo_url").notNull().default(""),
  /** PEM text. */
  idpCertificate: text("idp_certificate").notNull().default(""),
  wantEncrypted: bool("want_encrypted"),
  /** Passwords stop working for the company's users, except the break-glass super admin's. */
  ssoRequired: bool("sso_required"),
  breakGlassUserId: integer("break_glass_user_id"),
  jitEnabled: bool("jit_enabled"),
  jitDefaultRoleId: integer("jit_default_role_id"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** An identity provider's group name mapped to a role of the same company. */
export const ssoGroupRoles = sqliteTable(
  "sso_group_roles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    groupName: text("group_name").notNull(),
    roleId: integer("role_id").notNull(),
  },
  (t) => [uniqueIndex("sso_group_roles_company_group_uq").on(t.companyId, t.groupName)],
);

/** A sign-in sent to the identity provider: keyed by the SHA-256 of its state, spent once. */
export const ssoSignInAttempts = sqliteTable(
  "sso_sign_in_attempts",
  {
    stateHash: text("state_hash").primaryKey(),
    companyId: integer("company_id").notNull(),
    protocol: text("protocol", { enum: ["oidc", "saml"] }).notNull(),
    nonce: text("nonce").notNull().default(""),
    pkceVerifier: text("pkce_verifier").notNull().default(""),
    returnTo: text("return_to").notNull().default("/"),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("sso_sign_in_attempts_expiry_idx").on(t.expiresAt)],
);

/** Token and assertion ids already used, refused until they expire (replay). */
export const ssoUsedIds = sqliteTable(
  "sso_used_ids",
  {
    companyId: integer("company_id").notNull(),
    usedId: text("used_id").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.usedId] }), index("sso_used_ids_expiry_idx").on(t.expiresAt)],
);

/** The identity provider's subject of a console user. */
export const ssoIdentities = sqliteTable(
  "sso_identities",
  {
    companyId: integer("company_id").notNull(),
    protocol: text("protocol", { enum: ["oidc", "saml"] }).notNull(),
    subject: text("subject").notNull(),
    userId: integer("user_id").notNull(),
    createdByJit: bool("created_by_jit"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.protocol, t.subject] }), index("sso_identities_user_idx").on(t.userId)],
);

/** A console session opened by single sign-on: what single logout needs. */
export const ssoSessions = sqliteTable("sso_sessions", {
  sessionId: text("session_id").primaryKey(),
  companyId: integer("company_id").notNull(),
  protocol: text("protocol", { enum: ["oidc", "saml"] }).notNull(),
  idToken: text("id_token"),
  nameId: text("name_id"),
  sessionIndex: text("session_index"),
  createdAt: integer("created_at").notNull(),
});

/** A console user's passkeys (WebAuthn, migration 0068, decision 0123): the verifier's stored credential. */
export const consolePasskeys = sqliteTable(
  "console_passkeys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    companyId: integer("company_id").notNull(),
    /** base64url, as the authenticator names it. */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** The signature counter last seen; an assertion must move it forward (unless both are 0). */
    counter: integer("counter").notNull().default(0),
    /** JSON array of transports the authenticator reported. */
    transports: text("transports").notNull().default("[]"),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [uniqueIndex("console_passkeys_credential_idx").on(t.credentialId), index("console_passkeys_user_idx").on(t.userId)],
);

/** Single-use WebAuthn challenges for console passkeys: 'register' (signed in) or 'sign-in' (after the password). */
export const passkeyChallenges = sqliteTable(
  "passkey_challenges",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    purpose: text("purpose", { enum: ["register", "sign-in"] }).notNull(),
    challenge: text("challenge").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("passkey_challenges_challenge_idx").on(t.challenge), index("passkey_challenges_user_idx").on(t.userId, t.purpose)],
);

export const companySettings = sqliteTable("company_settings", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  companyId: integer("company_id").notNull().unique(),
  /** The holiday calendar the scheduled-open hours follow and how (decision 0077; migration 0043). */
  holidayCalendarId: integer("holiday_calendar_id"),
  onHolidays: text("on_holidays", { enum: ["ignore", "closed", "holidayHours"] })
    .notNull()
    .default("ignore"),
  isMultiPhoneLogin: bool("is_multi_phone_login"),
  offlineReconnectHours: integer("offline_reconect").notNull().default(24),
  scheduleOpen: bool("schedule_open"),
  fpi: bool("fpi"),
  defaultTimeZoneId: integer("default_time_zone_id"),
  ekeyDurationHours: integer("ekey_duration").notNull().default(24),
  defaultCountryCode: text("default_country_code").notNull().default("001"),
  /** Months between forced password changes; 0 means never. */
  passwordExpiryMonths: integer("password_expiry_duration").notNull().default(0),
  isForceFirmwareUpdate: bool("is_force_firmware_update"),
  /** Forced firmware offers only between these local times ("HH:mm") in each door's zone; null: any time (migration 0054). */
  firmwareWindowStart: text("firmware_window_start"),
  firmwareWindowEnd: text("firmware_window_end"),
  /** Until this date (YYYY-MM-DD, in each door's zone) the company's boards stay out of staged rollouts' waves. */
  rolloutDeferredUntil: text("rollout_deferred_until"),
  allowedFirmware: text("allowed_firmware", { enum: ["All Users", "Installer Only"] })
    .notNull()
    .default("All Users"),
  biometricSecurity: bool("biometric_security"),
  require2fa: bool("require_2fa"),
  /** Who must have an authenticator app or a passkey (migration 0068, decision 0123): nobody, every console user, or the roles below. */
  mfaPolicy: text("mfa_policy", { enum: ["none", "all", "roles"] })
    .notNull()
    .default("none"),
  /** JSON array of role ids, for mfaPolicy 'roles'. */
  mfaPolicyRoleIds: text("mfa_policy_role_ids").notNull().default("[]"),
  passwordResetSecurity: text("password_reset_security", { enum: ["email", "text", "admin"] })
    .notNull()
    .default("email"),
  passwordResetSecondaryAction: text("password_reset_secondary_action", { enum: ["nothing", "alert", "flag"] })
    .notNull()
    .default("nothing"),
  passwordResetPhone: text("password_reset_phone").notNull().default(""),
  /** Days the company's log store keeps at hand; older rows are read from the archive (HOT_DAYS, app/schemas/settings.ts). */
  activityHotDays: integer("activity_hot_days").notNull().default(90),
  /** Days activity is kept at all (RETENTION_DAYS); null keeps it indefinitely. */
  activityRetentionDays: integer("activity_retention_days"),
  /** What happens to activity past the retention: deleted, or kept with the people removed. */
  activityRetentionAction: text("activity_retention_action", { enum: ["delete", "anonymise"] })
    .notNull()
    .default("delete"),
  /** Alert recipients may be texted (decision 0073); off by default. */
  alertTexts: bool("alert_texts"),
  /** The language of the company's mails (invites, reset links); asked when the company is created. */
  language: text("language", { enum: ["en", "es"] })
    .notNull()
    .default("en"),
  updatedAt: updatedAt(),
});

/** Weekly scheduled-open rows, day 0 = Monday. */
export const scheduleOpenDays = sqliteTable(
  "schedule_open_days",
  {
    companyId: integer("company_id").notNull(),
    day: integer("day").notNull(),
    openWholeDay: bool("open_whole_day"),
    openTime: text("open_time").notNull().default(""),
    closeTime: text("close_time").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day] })],
);

export const scheduleOpenExceptions = sqliteTable(
  "schedule_open_exceptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    date: text("date").notNull(),
    openWholeDay: bool("open_whole_day"),
    openTime: text("open_time").notNull().default(""),
    closeTime: text("close_time").notNull().default(""),
  },
  (t) => [uniqueIndex("schedule_open_exceptions_uq").on(t.companyId, t.date)],
);

/** A company's holiday calendar (decision 0077; migration 0043); `source` names an imported public-holiday set. */
export const holidayCalendars = sqliteTable(
  "holiday_calendars",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    name: text("name").notNull(),
    source: text("source"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("holiday_calendars_name_uq").on(t.companyId, t.name)],
);

/** One date of a calendar: the whole day, or open only `[openTime, closeTime)` (null: 00:00 / 24:00). */
export const holidayDates = sqliteTable(
  "holiday_dates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    calendarId: integer("calendar_id").notNull(),
    date: text("date").notNull(),
    name: text("name").notNull().default(""),
    openTime: text("open_time"),
    closeTime: text("close_time"),
  },
  (t) => [uniqueIndex("holiday_dates_uq").on(t.calendarId, t.date)],
);

/** A company's custom field for its users (issue 32, decision 0095; migration 0059). */
export const customFields = sqliteTable(
  "custom_fields",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    /** The API's and the CSV's name: lower case letters, digits and underscores. */
    key: text("key").notNull(),
    label: text("label").notNull(),
    type: text("type", { enum: ["text", "number", "date", "choice"] }).notNull(),
    /** A JSON array of the choices (type 'choice'). */
    choices: text("choices").notNull().default("[]"),
    required: bool("required"),
    /** Shown as a column of the users list. */
    showInList: bool("show_in_list"),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [
    uniqueIndex("custom_fields_company_key_uq")
      .on(t.companyId, t.key)
      .where(sql`deleted_at is null`),
  ],
);

/** A user's value of a custom field, normalised by type (a number canonical, a date YYYY-MM-DD); empty is no row. */
export const userFieldValues = sqliteTable(
  "user_field_values",
  {
    companyId: integer("company_id").notNull(),
    userId: integer("user_id").notNull(),
    fieldId: integer("field_id").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.fieldId] }), index("user_field_values_search_idx").on(t.companyId, t.fieldId, t.value)],
);

/** A guest's pass (issue 32, decision 0096): its doors, window, link (a keyed hash) and bound phone. */
export const visitorPasses = sqliteTable(
  "visitor_passes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    hostUserId: integer("host_user_id").notNull(),
    createdByUserId: integer("created_by_user_id"),
    guestName: text("guest_name").notNull(),
    guestEmail: text("guest_email"),
    guestPhone: text("guest_phone"),
    /** The guest's language: their mail's, and the phone app's when they open the link. */
    language: text("language", { enum: ["en", "es"] })
      .notNull()
      .default("en"),
    /** The doors it opens, a JSON array of device ids; empty when it names a device group. */
    deviceIds: text("device_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    deviceGroupId: integer("device_group_id"),
    oneEntry: bool("one_entry"),
    /** The host is texted, as well as mailed, at the guest's first entry. */
    hostText: bool("host_text"),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    startTime: text("start_time").notNull(),
    endTime: text("end_time").notNull(),
    linkHash: text("link_hash").notNull(),
    linkExpiresAt: integer("link_expires_at").notNull(),
    /** The phone installation the link was first opened on; no other may open it. */
    installationId: text("installation_id"),
    boundAt: integer("bound_at"),
    firstEntryAt: integer("first_entry_at"),
    usedAt: integer("used_at"),
    revokedAt: integer("revoked_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("visitor_passes_link_uq").on(t.linkHash), index("visitor_passes_company_idx").on(t.companyId, t.endDate)],
);

/** A company's visitor rules: the longest visit, the hosting roles, the device group bounding guests' doors. */
export const visitorPassRules = sqliteTable("visitor_pass_rules", {
  companyId: integer("company_id").primaryKey(),
  maxDays: integer("max_days").notNull().default(7),
  hostRoleIds: text("host_role_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
  deviceGroupId: integer("device_group_id"),
  updatedAt: updatedAt(),
});

export const fobProgrammers = sqliteTable(
  "fob_programmers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    displayName: text("display_name").notNull(),
    isAssigned: bool("is_assigned"),
  },
  (t) => [index("fob_programmers_company_idx").on(t.companyId, t.isAssigned)],
);

export const mailerConfigs = sqliteTable("mailer_configs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Null is the platform's default mailer. */
  companyId: integer("company_id").unique(),
  hostName: text("host_name").notNull(),
  port: integer("port_name").notNull(),
  userName: text("user_name").notNull(),
  userPassword: text("user_password").notNull(),
  updatedAt: updatedAt(),
});

export const companyRequests = sqliteTable(
  "company_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The reseller that asked. */
    companyId: integer("company_id").notNull(),
    pocUserId: integer("poc_user_id").notNull(),
    companyName: text("company_name").notNull(),
    companyType: text("company_type", { enum: ["ec", "var", "oem"] })
      .notNull()
      .default("ec"),
    billingTerm: integer("billing_term").notNull(),
    pocFirstName: text("poc_first_name").notNull().default(""),
    pocLastName: text("poc_last_name").notNull().default(""),
    pocEmail: text("poc_email").notNull().default(""),
    pocCountryCode: text("poc_country_code").notNull().default("001"),
    pocPhoneNumber: text("poc_phone_number").notNull().default(""),
    status: text("status", { enum: ["pending", "accepted", "rejected"] })
      .notNull()
      .default("pending"),
    createdCompanyId: integer("created_company_id"),
    decidedAt: integer("decided_at"),
    decidedByUserId: integer("decided_by_user_id"),
    createdAt: createdAt(),
  },
  (t) => [index("company_requests_status_idx").on(t.status, t.createdAt), index("company_requests_company_idx").on(t.companyId, t.createdAt)],
);

// ---------------------------------------------------------------- devices and access

export const deviceTypes = sqliteTable("device_types", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  deviceCode: text("device_code").notNull().unique(),
  deviceType: text("device_type").notNull(),
  createdAt: createdAt(),
});

export const devices = sqliteTable(
  "devices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    deviceTypeId: integer("device_type_id"),
    fullName: text("full_name").notNull().default(""),
    displayName: text("display_name").notNull().default(""),
    serialNumber: text("serial_number").notNull(),
    serialFront: text("serial_front").notNull().default(""),
    serialBack: text("serial_back").notNull().default(""),
    hardwareId: text("hardware_id").notNull().default(""),
    status: text("status", { enum: ["stock", "unconfigured", "configured", "retired"] })
      .notNull()
      .default("configured"),
    startDate: text("start_date"),
    shippingDate: text("shipping_date"),
    subscriptionTerm: integer("subscription_term"),
    lockType: text("lock_type").notNull().default(""),
    relockTrigger: text("relock_trigger").notNull().default("Timer"),
    relockTimer: integer("relock_timer"),
    triggerMode: text("trigger_mode").notNull().default(""),
    manualLock: bool("manual_lock"),
    sleepMode: bool("sleep_mode"),
    sleepTime: integer("sleep_time"),
    bluetoothPowerLevel: integer("bluetooth_power_level").notNull().default(3),
    dnortTime: integer("dnort_time"),
    lowBattery: bool("low_battery"),
    scheduleOpen: bool("schedule_open"),
    sensor1OpenName: text("sensor1_open_name").notNull().default(""),
    sensor1CloseName: text("sensor1_close_name").notNull().default(""),
    sensor2OpenName: text("sensor2_open_name").notNull().default(""),
    sensor2CloseName: text("sensor2_close_name").notNull().default(""),
    lastLatitude: real("last_latitude"),
    lastLongitude: real("last_longitude"),
    lastLocationAt: integer("last_location_at"),
    installedAt: integer("installed_at"),
    lastActivityAt: integer("last_activity_at"),
    /** MQTT credentials of the access board: `algorithm$params$salt$hash`. */
    boardSecretHash: text("board_secret_hash"),
    firmwareVersion: text("firmware_version"),
    /** The release an allowed user started for this board; offered without force (0037_firmware_policy.sql). */
    firmwareStartReleaseId: integer("firmware_start_release_id"),
    /** The door contact as last reported: sensor.contact input 1 or door.opened/closed (0014). */
    doorState: text("door_state", { enum: ["open", "closed"] }),
    doorStateAt: integer("door_state_at"),
    /** The cell the device left in its last transfer, and when: its gateway may still deliver buffered events for a while. */
    previousCell: text("previous_cell"),
    cellMovedAt: integer("cell_moved_at"),
    /** Seconds the door may stand open before a held-open alarm; null: none (0042_door_alarms.sql). */
    heldOpenSeconds: integer("held_open_seconds").default(30),
    /** Whether a forced opening raises an alarm. */
    forcedAlarm: integer("forced_alarm", { mode: "boolean" }).notNull().default(true),
    deletedAt: integer("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("devices_serial_uq").on(t.serialNumber),
    index("devices_company_name_idx").on(t.companyId, t.fullName),
    index("devices_company_created_idx").on(t.companyId, t.createdAt),
    index("devices_company_status_idx").on(t.companyId, t.status),
    /** Registration looks serial labels up by either side (0007_device_lifecycle.sql). */
    index("devices_serial_front_idx").on(t.serialFront),
    index("devices_serial_back_idx").on(t.serialBack),
    /** The devices list sorts and filters by these within a company (0014_device_presence.sql). */
    index("devices_company_serial_idx").on(t.companyId, t.serialNumber),
    index("devices_company_activity_idx").on(t.companyId, t.lastActivityAt),
    index("devices_company_type_idx").on(t.companyId, t.deviceTypeId),
    index("devices_company_battery_idx").on(t.companyId, t.lowBattery),
    // Searches of one or two characters match a prefix of these (0021_device_search.sql, decision 0043);
    // longer ones use the trigram table `devices_search`, which that migration keeps in step by triggers.
    index("devices_company_full_lc_idx").on(t.companyId, sql`lower(${t.fullName})`),
    index("devices_company_display_lc_idx").on(t.companyId, sql`lower(${t.displayName})`),
    index("devices_company_serial_lc_idx").on(t.companyId, sql`lower(${t.serialNumber})`),
  ],
);

/**
 * Board presence per device and gateway instance, as the gateways report it (decision 0033): a
 * board is online while a gateway seen recently says it is connected.
 */
export const devicePresence = sqliteTable(
  "device_presence",
  {
    deviceId: integer("device_id").notNull(),
    gatewayId: integer("gateway_id").notNull(),
    /** The reporting instance's name within a gateway registration (a cluster shares one secret). */
    instance: text("instance").notNull().default(""),
    companyId: integer("company_id").notNull(),
    online: integer("online", { mode: "boolean" }).notNull(),
    /** When the board connected (online) or disconnected (offline), on the gateway's clock. */
    since: integer("since").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.gatewayId, t.instance] }), index("device_presence_gateway_idx").on(t.gatewayId, t.instance, t.online)],
);

/** Each board's last clock reading from its gateway (migration 0051, decision 0092). */
export const deviceClocks = sqliteTable(
  "device_clocks",
  {
    deviceId: integer("device_id").primaryKey(),
    companyId: integer("company_id").notNull(),
    /** The board's clock minus its gateway's, when the status arrived; null: no clock reported. */
    driftMs: integer("drift_ms"),
    /** The tz database version the board decides with; null: not reported. */
    tzdata: text("tzdata"),
    /** The gateway core's tz database version at the reading. */
    coreTzdata: text("core_tzdata").notNull(),
    reportedAt: integer("reported_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("device_clocks_company_idx").on(t.companyId)],
);

export const deviceGroups = sqliteTable(
  "device_groups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    fullName: text("full_name").notNull(),
    displayName: text("display_name").notNull(),
    description: text("description").notNull().default(""),
    schMonday: bool("sch_monday"),
    schTuesday: bool("sch_tuesday"),
    schWednesday: bool("sch_wednesday"),
    schThursday: bool("sch_thursday"),
    schFriday: bool("sch_friday"),
    schSaturday: bool("sch_saturday"),
    schSunday: bool("sch_sunday"),
    startAt: text("start_at"),
    endAt: text("end_at"),
    isAllDay: bool("is_all_day"),
    timeZoneId: integer("time_zone_id"),
    /** 1 and 2 are active, 3 is deactivated. */
    status: integer("status").notNull().default(1),
    /** The holiday calendar the group's schedule follows and how; its keys that ignore holidays follow it (decision 0077; migration 0063). */
    holidayCalendarId: integer("holiday_calendar_id"),
    onHolidays: text("on_holidays", { enum: ["ignore", "closed", "holidayHours"] })
      .notNull()
      .default("ignore"),
    deletedAt: integer("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("device_groups_company_idx").on(t.companyId, t.status, t.fullName),
    // Prefix search on lower-cased names (migration 0016, decision 0035).
    index("device_groups_company_full_lc_idx").on(t.companyId, sql`lower(${t.fullName})`),
    index("device_groups_company_display_lc_idx").on(t.companyId, sql`lower(${t.displayName})`),
  ],
);

export const deviceGroupMembers = sqliteTable(
  "device_group_members",
  {
    groupId: integer("group_id").notNull(),
    deviceId: integer("device_id").notNull(),
    companyId: integer("company_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.deviceId] }), index("device_group_members_device_idx").on(t.deviceId)],
);

/** A user's e-key on one device, or on a device group (is_group). */
export const ekeyAssignments = sqliteTable(
  "ekey_assignments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    userId: integer("user_id").notNull(),
    isGroup: bool("is_group"),
    deviceId: integer("device_id"),
    groupId: integer("group_id"),
    accessType: text("access_type", { enum: ["full_access", "custom_access", "one_time_access"] }).notNull(),
    /** '2' for one-time keys, '1' otherwise (the spec's assign status). */
    status: text("status").notNull().default("1"),
    startDate: text("start_date"),
    endDate: text("end_date"),
    startTime: text("start_time"),
    endTime: text("end_time"),
    /** Seven 0/1 characters, Monday first. */
    scheduleDays: text("schedule_days").notNull().default("1111111"),
    isNeverEnd: bool("is_never_end"),
    isAllDay: bool("is_all_day"),
    timeZoneId: integer("time_zone_id"),
    fobDeviceId: text("fob_device_id"),
    usedAt: integer("used_at"),
    /** Set on a group key granted because the user is in this directory group; leaving withdraws it (migration 0045). */
    scimGroupId: integer("scim_group_id"),
    /** The holiday calendar the key follows and how (decision 0077; migration 0043). */
    holidayCalendarId: integer("holiday_calendar_id"),
    onHolidays: text("on_holidays", { enum: ["ignore", "closed", "holidayHours"] })
      .notNull()
      .default("ignore"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("ekeys_user_idx").on(t.companyId, t.userId),
    index("ekeys_holiday_calendar_idx").on(t.holidayCalendarId),
    index("ekeys_device_idx").on(t.deviceId),
    index("ekeys_group_idx").on(t.groupId),
    index("ekeys_scim_group_idx").on(t.scimGroupId, t.userId),
  ],
);

// ---------------------------------------------------------------- activity, alerts, support

/**
 * D1 holds a console or API audit row only until its company's store has copied it (an outbox, migration
 * 0024); gateway and phone events go to the store alone. Each company's whole log is in its own store with
 * these columns and the filter and sort indexes (app/durable/company-log-schema.ts, decisions 0047 and 0048).
 */
export const activityLogs = sqliteTable(
  "activity_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    /** Set by boards and the gateway so re-sent events are stored once. */
    eventId: text("event_id"),
    activityTypeId: integer("activity_type_id").notNull(),
    operationType: text("operation_type", { enum: ["Sentinel", "App", "Device", "Admin"] }).notNull(),
    createdByUserId: integer("created_by_user_id"),
    targetUserId: integer("target_user_id"),
    targetDeviceId: integer("target_device_id"),
    targetDeviceGroupId: integer("target_device_group_id"),
    summary: text("summary").notNull().default(""),
    detailsJson: text("details_json").notNull().default("{}"),
    gpsLocation: text("gps_location"),
    activityTimestamp: integer("activity_timestamp").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("activity_event_uq").on(t.eventId), index("activity_company_id_idx").on(t.companyId)],
);

/**
 * Tallies of a company's activity log, kept by triggers in the same statement as each write: the list's
 * counts and name sorts read these, never the log. They live in each company's store with its log
 * (app/durable/company-log-schema.ts); D1's `activity_logs` is an outbox without them (migration 0024).
 */
export const activityCounts = sqliteTable(
  "activity_counts",
  {
    companyId: integer("company_id").notNull(),
    operationType: text("operation_type").notNull(),
    activityTypeId: integer("activity_type_id").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.operationType, t.activityTypeId] })],
);

/** Rows per referenced person (as creator or target), device or group; `refId` 0 counts rows with none. */
export const activityRefCounts = sqliteTable(
  "activity_ref_counts",
  {
    companyId: integer("company_id").notNull(),
    kind: text("kind", { enum: ["creator", "target", "device", "group"] }).notNull(),
    refId: integer("ref_id").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind, t.refId] })],
);

export const activityNotes = sqliteTable(
  "activity_notes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    activityId: integer("activity_id").notNull(),
    userId: integer("user_id").notNull(),
    note: text("note_description").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("activity_notes_activity_idx").on(t.activityId, t.createdAt)],
);

export const alerts = sqliteTable(
  "alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    name: text("name").notNull(),
    activityTypeId: integer("activity_type_id").notNull(),
    schedule: text("schedule", { enum: ["any", "custom"] })
      .notNull()
      .default("any"),
    startDate: text("start_date"),
    endDate: text("end_date"),
    isNeverEnd: bool("is_never_end"),
    days: text("days").notNull().default("1111111"),
    isAllDay: bool("is_all_day"),
    startTime: text("start_time"),
    endTime: text("end_time"),
    timeZoneId: integer("time_zone_id"),
    lastActivityId: integer("last_activity_id"),
    lastRunAt: integer("last_run_at"),
    /** When the engine last mailed for this alert; the digest window starts there (decision 0026). */
    lastMailAt: integer("last_mail_at"),
    /** The language of the alert's mail: its editor's when it was saved. */
    language: text("language", { enum: ["en", "es"] })
      .notNull()
      .default("en"),
    /** The holiday calendar the custom schedule follows and how (decision 0077; migration 0057). */
    holidayCalendarId: integer("holiday_calendar_id"),
    onHolidays: text("on_holidays", { enum: ["ignore", "closed", "holidayHours"] })
      .notNull()
      .default("ignore"),
    deletedAt: integer("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("alerts_company_idx").on(t.companyId, t.name), index("alerts_activity_idx").on(t.companyId, t.activityTypeId)],
);

/**
 * The event types an alert fires for (decision 0059); `alerts.activityTypeId` is the first of them. The
 * engine finds the alerts of a page of events by (company, type).
 */
export const alertActivityTypes = sqliteTable(
  "alert_activity_types",
  {
    alertId: integer("alert_id").notNull(),
    companyId: integer("company_id").notNull(),
    activityTypeId: integer("activity_type_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.activityTypeId] }), index("alert_activity_types_company_type_idx").on(t.companyId, t.activityTypeId)],
);

/** Who or what an alert watches: created-by users, target users or devices (null ref = any). */
export const alertTargets = sqliteTable(
  "alert_targets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    alertId: integer("alert_id").notNull(),
    companyId: integer("company_id").notNull(),
    kind: text("kind", { enum: ["created_by", "target_user", "device"] }).notNull(),
    refId: integer("ref_id"),
  },
  (t) => [index("alert_targets_alert_idx").on(t.alertId)],
);

export const alertRecipients = sqliteTable(
  "alert_recipients",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    alertId: integer("alert_id").notNull(),
    companyId: integer("company_id").notNull(),
    userId: integer("user_id"),
    email: text("email").notNull(),
    /** How the recipient hears of a firing; only a user (with a phone) can be texted (decision 0073). */
    channel: text("channel", { enum: ["email", "text", "both"] })
      .notNull()
      .default("email"),
  },
  (t) => [index("alert_recipients_alert_idx").on(t.alertId)],
);

/** Where the platform-wide alert engine stopped (a single row, id 1): each company store alerts on the rows past it (decision 0048). */
/** Each company's latest first-person-in entry ('Scheduled Open Started'), kept by a trigger on the outbox. */
export const companyFirstEntries = sqliteTable("company_first_entries", {
  companyId: integer("company_id").primaryKey(),
  at: integer("at").notNull(),
});

export const alertCursor = sqliteTable("alert_cursor", {
  id: integer("id").primaryKey(),
  lastActivityId: integer("last_activity_id").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** An alert matched an activity; unique per pair, so a match and its mail happen once. */
export const alertMatches = sqliteTable(
  "alert_matches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    alertId: integer("alert_id").notNull(),
    companyId: integer("company_id").notNull(),
    activityId: integer("activity_id").notNull(),
    state: text("state", { enum: ["sent", "held", "digested"] }).notNull(),
    matchedAt: integer("matched_at").notNull(),
  },
  (t) => [
    uniqueIndex("alert_matches_alert_activity_uq").on(t.alertId, t.activityId),
    index("alert_matches_company_idx").on(t.companyId, t.matchedAt),
    index("alert_matches_held_idx").on(t.state, t.alertId),
  ],
);

export const supportTickets = sqliteTable(
  "support_tickets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    ticketNumber: text("ticket_number").notNull(),
    userId: integer("user_id").notNull(),
    brand: text("brand").notNull().default(""),
    phoneModel: text("phone_model").notNull().default(""),
    softwareVersion: text("software_version").notNull().default(""),
    appVersion: text("app_version").notNull().default(""),
    ticketMode: integer("ticket_mode").notNull().default(1),
    bluetoothStatus: text("bluetooth_status").notNull().default("On"),
    bluetoothPermission: integer("bluetooth_permission").notNull().default(1),
    locationPermission: integer("location_permission").notNull().default(1),
    latitude: real("latitude"),
    longitude: real("longitude"),
    sentinelDateTime: integer("sentinel_date_time"),
    reportingDateTime: integer("reporting_date_time"),
    devicesDetails: text("devices_details").notNull().default("{}"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("support_tickets_number_uq").on(t.ticketNumber), index("support_tickets_company_idx").on(t.companyId, t.createdAt)],
);

export const supportTicketNotes = sqliteTable(
  "support_ticket_notes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    ticketId: integer("ticket_id").notNull(),
    userId: integer("user_id").notNull(),
    note: text("note_description").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("support_ticket_notes_ticket_idx").on(t.ticketId, t.createdAt)],
);

export const faqs = sqliteTable(
  "faqs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Null: shown to every company. */
    companyId: integer("company_id"),
    language: text("language", { enum: ["en", "es"] })
      .notNull()
      .default("en"),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (t) => [index("faqs_language_order_idx").on(t.language, t.sortOrder)],
);

// ---------------------------------------------------------------- firmware, billing, stock

export const firmwareReleases = sqliteTable(
  "firmware_releases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The platform company that published it. */
    companyId: integer("company_id").notNull(),
    deviceTypeId: integer("device_type_id"),
    version: text("version").notNull(),
    versionDescription: text("version_description").notNull().default(""),
    r2Key: text("r2_key").notNull(),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    isActive: bool("is_active"),
    deletedAt: integer("deleted_at"),
    createdAt: createdAt(),
  },
  (t) => [index("firmware_type_idx").on(t.deviceTypeId, t.isActive)],
);

/**
 * A door alarm (0042_door_alarms.sql, decision 0076): active until acknowledged, cleared once acknowledged
 * and the door closed. Repeats fold into the one row per company, door and kind that is not cleared.
 */
export const doorAlarms = sqliteTable(
  "door_alarms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    deviceId: integer("device_id").notNull(),
    kind: text("kind", { enum: ["heldOpen", "forced"] }).notNull(),
    state: text("state", { enum: ["active", "acknowledged", "cleared"] })
      .notNull()
      .default("active"),
    raisedAt: integer("raised_at").notNull(),
    raisedEventId: text("raised_event_id").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    repeats: integer("repeats").notNull().default(1),
    doorClosedAt: integer("door_closed_at"),
    acknowledgedByUserId: integer("acknowledged_by_user_id"),
    acknowledgedAt: integer("acknowledged_at"),
    note: text("note").notNull().default(""),
    clearedAt: integer("cleared_at"),
    clearedEventId: text("cleared_event_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("door_alarms_open_uq")
      .on(t.companyId, t.deviceId, t.kind)
      .where(sql`state != 'cleared'`),
    index("door_alarms_company_idx").on(t.companyId, t.state, t.raisedAt),
    index("door_alarms_device_idx").on(t.deviceId, t.kind, t.lastSeenAt),
    index("door_alarms_raised_event_idx").on(t.raisedEventId),
    index("door_alarms_cleared_event_idx").on(t.clearedEventId),
  ],
);

/** Each board's download and install progress, as reported through the gateway. */
export const firmwareProgress = sqliteTable(
  "firmware_progress",
  {
    deviceId: integer("device_id").notNull(),
    releaseId: integer("release_id").notNull(),
    companyId: integer("company_id").notNull(),
    blocksDone: integer("blocks_done").notNull().default(0),
    blocksTotal: integer("blocks_total").notNull().default(0),
    state: text("state", { enum: ["offered", "downloading", "verified", "installed", "failed"] }).notNull(),
    detail: text("detail").notNull().default(""),
    updatedAt: updatedAt(),
    /** The first failed install of this release on the board (gateway clock); kept through retries. */
    failedAt: integer("failed_at"),
    /** When the board reported the install (gateway clock): healthy once it is back online after it. */
    installedAt: integer("installed_at"),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.releaseId] }), index("firmware_progress_release_idx").on(t.releaseId)],
);

/** A staged rollout of one release to its device type's boards, wave by wave (migration 0053, decision 0094). */
export const firmwareRollouts = sqliteTable(
  "firmware_rollouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    releaseId: integer("release_id").notNull(),
    deviceTypeId: integer("device_type_id").notNull(),
    previousReleaseId: integer("previous_release_id"),
    /** Cumulative percentages of the type's boards, ascending, ending at 100; the first is the canary wave. */
    waves: text("waves", { mode: "json" }).$type<number[]>().notNull(),
    /** Device ids chosen for the canary wave. */
    canary: text("canary", { mode: "json" }).$type<number[]>().notNull().default([]),
    soakMinutes: integer("soak_minutes").notNull(),
    onlineMinutes: integer("online_minutes").notNull(),
    failPercent: integer("fail_percent"),
    failCount: integer("fail_count"),
    state: text("state", { enum: ["running", "paused", "aborted", "completed"] }).notNull(),
    wave: integer("wave").notNull().default(0),
    waveStartedAt: integer("wave_started_at").notNull(),
    countedFrom: integer("counted_from").notNull(),
    pausedReason: text("paused_reason").notNull().default(""),
    companyId: integer("company_id").notNull(),
    createdByUserId: integer("created_by_user_id").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    endedAt: integer("ended_at"),
  },
  (t) => [index("firmware_rollouts_release_idx").on(t.releaseId)],
);

export const invoices = sqliteTable(
  "invoices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The issuing (bill-to) company. */
    companyId: integer("company_id").notNull(),
    customerCompanyId: integer("customer_company_id").notNull(),
    invoiceNum: text("invoice_num").notNull(),
    dueDate: text("due_date").notNull(),
    notes: text("notes").notNull().default(""),
    /** Money in cents. */
    amountCents: integer("amount").notNull().default(0),
    discountCents: integer("discount").notNull().default(0),
    shippingCents: integer("shipping").notNull().default(0),
    taxCents: integer("tax").notNull().default(0),
    totalCents: integer("total").notNull().default(0),
    /** Overdue is derived (open and past due), never stored. */
    status: text("status", { enum: ["open", "paid", "void"] })
      .notNull()
      .default("open"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invoices_num_uq").on(t.companyId, t.invoiceNum),
    index("invoices_customer_idx").on(t.customerCompanyId, t.createdAt),
    index("invoices_company_idx").on(t.companyId, t.createdAt),
  ],
);

export const invoiceLineItems = sqliteTable(
  "invoice_line_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    invoiceId: integer("invoice_id").notNull(),
    companyId: integer("company_id").notNull(),
    name: text("name").notNull(),
    description: text("desc").notNull(),
    qty: integer("qty").notNull(),
    /** MSRP, per unit. */
    priceCents: integer("price").notNull(),
    /** Discount off the MSRP in basis points (1525 = 15.25 %), derived from the price per. */
    discountBp: integer("discount_bp").notNull().default(0),
    pricePerCents: integer("price_per").notNull(),
    totalCents: integer("total").notNull(),
    /** The saved line this one re-bills with the same quantity and MSRP (a customer invoice). */
    sourceLineId: integer("source_line_id"),
  },
  (t) => [index("invoice_lines_invoice_idx").on(t.invoiceId)],
);

export const deviceTransfers = sqliteTable(
  "device_transfers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    toCompanyId: integer("to_company_id").notNull(),
    status: text("status", { enum: ["stock", "unconfigured"] }).notNull(),
    shippingDate: text("shipping_date"),
    subscriptionTerm: integer("subscription_term"),
    createdByUserId: integer("created_by_user_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("device_transfers_company_idx").on(t.companyId, t.createdAt)],
);

export const deviceTransferItems = sqliteTable(
  "device_transfer_items",
  {
    transferId: integer("transfer_id").notNull(),
    deviceId: integer("device_id").notNull(),
  },
  // A device's recent transfers, by device (migration 0048; decision 0074).
  (t) => [primaryKey({ columns: [t.transferId, t.deviceId] }), index("device_transfer_items_device_idx").on(t.deviceId)],
);

// ---------------------------------------------------------------- gateway

/** Cells (docs/decisions/0050-cells.md): `mqttUrl` is the public MQTT endpoint the cell's boards connect to. */
export const cells = sqliteTable(
  "cells",
  {
    name: text("name").primaryKey(),
    mqttUrl: text("mqtt_url").notNull(),
    label: text("label").notNull().default(""),
    createdAt: createdAt(),
  },
  // One endpoint, one cell (migration 0035).
  (t) => [uniqueIndex("cells_mqtt_url_unique").on(t.mqttUrl)],
);

/** Registered gateways; each authenticates to the Worker with its own secret. */
export const gateways = sqliteTable("gateways", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  secretHash: text("secret_hash").notNull(),
  /** The one cell this gateway serves (docs/decisions/0050-cells.md). */
  cell: text("cell").notNull().default("main"),
  lastSeenAt: integer("last_seen_at"),
  createdAt: createdAt(),
});

/**
 * The change feed gateways follow: one row per change to anything a gateway mirrors
 * (devices, board credentials, keys, groups, scheduled-open hours, firmware). `seq` is the cursor.
 */
export const gatewayChanges = sqliteTable(
  "gateway_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    entity: text("entity").notNull(),
    entityId: integer("entity_id").notNull(),
    op: text("op", { enum: ["upsert", "delete"] }).notNull(),
    /** A cell the change concerns besides its company's current one (the cell a company or device left, or a cell's own record). */
    cell: text("cell"),
    createdAt: createdAt(),
  },
  (t) => [index("gateway_changes_entity_idx").on(t.entity, t.entityId)],
);

// ---------------------------------------------------------------- mail

/** Mail waiting for SMTP delivery; written in the same batch as the change that sends it. */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: integer("sent_at"),
    /** Names what an engine mail is for (alert, activity or digest, recipient): queued once. */
    dedupeKey: text("dedupe_key"),
    /** Until when the drain that claimed the row is sending it; others leave it alone (outbox.server.ts). */
    claimedUntil: integer("claimed_until"),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_pending_idx").on(t.sentAt, t.createdAt), uniqueIndex("mail_outbox_dedupe_uq").on(t.dedupeKey)],
);

/**
 * Texts waiting for the text-message sender (decision 0073): alerts, queued in the batch of their match, and
 * visitor passes' (a guest's link, a host's arrival notice), queued with the pass or its first entry.
 * A text is tried once: the drain claims the row, then records whether the provider took it.
 */
export const textOutbox = sqliteTable(
  "text_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    /** The recipient; the number is the user's at sending time. */
    userId: integer("user_id"),
    /** A guest's text (no user): the number typed for the visitor pass `passId`. */
    toNumber: text("to_number"),
    passId: integer("pass_id"),
    body: text("body").notNull(),
    purpose: text("purpose").notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: integer("created_at").notNull(),
    claimedAt: integer("claimed_at"),
    delivered: integer("delivered", { mode: "boolean" }),
  },
  (t) => [
    uniqueIndex("text_outbox_dedupe_uq").on(t.dedupeKey),
    index("text_outbox_pending_idx")
      .on(t.createdAt)
      .where(sql`claimed_at is null`),
  ],
);

// ---------------------------------------------------------------- remote commands

export const DEVICE_COMMAND_STATUSES = ["pending", "sent", "succeeded", "failed"] as const;

/**
 * A command an admin sent to a board from the console (decision 0034): claimed once by the gateway
 * holding the board's connection, finished by the board's `command.result` or by its expiry.
 */
export const deviceCommands = sqliteTable(
  "device_commands",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    deviceId: integer("device_id").notNull(),
    command: text("command", { enum: ["unlock"] }).notNull(),
    status: text("status", { enum: DEVICE_COMMAND_STATUSES }).notNull().default("pending"),
    requestedByUserId: integer("requested_by_user_id"),
    expiresAt: integer("expires_at").notNull(),
    /** The gateway (`gateways.id`) that claimed it for delivery; a claimed command is never offered again. */
    claimedBy: integer("claimed_by"),
    claimedAt: integer("claimed_at"),
    finishedAt: integer("finished_at"),
    /** Why it failed: the board's reason, or "expired" when no board answered in time. */
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("device_commands_open_idx").on(t.status, t.deviceId), index("device_commands_device_idx").on(t.companyId, t.deviceId, t.id)],
);

// ---------------------------------------------------------------- webhooks (decision 0078, migration 0044)

/** A company's webhook endpoint: where its chosen event types are posted, signed by the Standard Webhooks rules. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** A JSON array of event type names (app/services/webhooks/event-types.ts). */
    eventTypes: text("event_types").notNull().default("[]"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** `whsec_` and the base64 key the signatures are made with. */
    secret: text("secret").notNull(),
    /** The secret before the last rotation: it signs too until `previousSecretUntil`. */
    previousSecret: text("previous_secret"),
    previousSecretUntil: integer("previous_secret_until"),
    /** The first failed attempt since the last success; null while the endpoint answers. */
    failingSince: integer("failing_since"),
    /** Why the platform disabled it (failing for days); null when an admin chose. */
    disabledReason: text("disabled_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_company_idx").on(t.companyId, t.enabled)],
);

/** One event a company's endpoints may receive, written in the alert engine's batch from what it reports. */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    /** The `webhook-id` every delivery of the event carries, retries and replays included. */
    id: text("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    type: text("type").notNull(),
    /** What the event reports (`activity:<id>`, `alert:<alert>:<activity>`): written once per source. */
    source: text("source").notNull(),
    occurredAt: integer("occurred_at").notNull(),
    dataJson: text("data_json").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("webhook_events_source_uq").on(t.companyId, t.source), index("webhook_events_company_time_idx").on(t.companyId, t.occurredAt)],
);

export const WEBHOOK_DELIVERY_STATES = ["pending", "delivered", "dead"] as const;

/** One event to one endpoint: the outbox the delivery queue is fed from. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    endpointId: integer("endpoint_id").notNull(),
    eventId: text("event_id").notNull(),
    state: text("state", { enum: WEBHOOK_DELIVERY_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When the sweep next sends it to the queue. */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    /** Until when a sent message's attempt may still be running; the sweep leaves it alone till then. */
    claimedUntil: integer("claimed_until"),
    lastStatus: integer("last_status"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_uq").on(t.eventId, t.endpointId),
    index("webhook_deliveries_due_idx").on(t.state, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

/** Every attempt of a delivery: the endpoint's delivery log. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: integer("delivery_id").notNull(),
    endpointId: integer("endpoint_id").notNull(),
    attemptedAt: integer("attempted_at").notNull(),
    /** The HTTP status, or null when no answer came (timeout, refused). */
    status: integer("status"),
    latencyMs: integer("latency_ms").notNull(),
    responseExcerpt: text("response_excerpt").notNull().default(""),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);

// ---------------------------------------------------------------- directory provisioning (SCIM, decision 0080)

/** A directory's bearer token for /scim/v2: `<id>.<secret>`, the secret kept as a keyed hash (decision 0110). */
export const scimTokens = sqliteTable(
  "scim_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    name: text("name").notNull(),
    secretHash: text("secret_hash").notNull(),
    createdByUserId: integer("created_by_user_id"),
    createdAt: createdAt(),
    rotatedAt: integer("rotated_at"),
    /** Coarse: written at most once per `LAST_USED_STEP_MS`, not on every request. */
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("scim_tokens_company_idx").on(t.companyId, t.revokedAt)],
);

/** A directory group; an admin links it to a role and/or device groups, which its members then get. */
export const scimGroups = sqliteTable(
  "scim_groups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    displayName: text("display_name").notNull(),
    externalId: text("external_id"),
    roleId: integer("role_id"),
    /** SCIM `meta.version`; every change adds one. */
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("scim_groups_company_name_uq").on(t.companyId, sql`lower(${t.displayName})`)],
);

export const scimGroupMembers = sqliteTable(
  "scim_group_members",
  {
    groupId: integer("group_id").notNull(),
    userId: integer("user_id").notNull(),
    companyId: integer("company_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("scim_group_members_user_idx").on(t.userId)],
);

export const scimGroupDeviceGroups = sqliteTable(
  "scim_group_device_groups",
  {
    scimGroupId: integer("scim_group_id").notNull(),
    deviceGroupId: integer("device_group_id").notNull(),
    companyId: integer("company_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scimGroupId, t.deviceGroupId] })],
);

/** A company's lockdown and evacuation plans (migration 0050, decision 0083). Id lists are JSON arrays. */
export const lockdownPlans = sqliteTable(
  "lockdown_plans",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    companyId: integer("company_id").notNull(),
    name: text("name").notNull(),
    mode: text("mode", { enum: ["lockdown", "evacuation"] }).notNull(),
    scope: text("scope", { enum: ["company", "groups", "doors"] }).notNull(),
    scopeIds: text("scope_ids").notNull().default("[]"),
    exemptUserIds: text("exempt_user_ids").notNull().default("[]"),
    exemptRoleIds: text("exempt_role_ids").notNull().default("[]"),
    durationMinutes: integer("duration_minutes"),
    /** The doors whose wired panic button (board event `panic.pressed`) starts this plan (migration 0056). */
    panicDoorIds: text("panic_door_ids").notNull().default("[]"),
    /** Who may start this plan from the phone app: users, and users holding these roles (migration 0058). */
    phoneTriggerUserIds: text("phone_trigger_user_ids").notNull().default("[]"),
    phoneTriggerRoleIds: text("phone_trigger_role_ids").notNull().default("[]"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("lockdown_plans_company_idx").on(t.companyId, t.deletedAt, t.name)],
);

/** A company's lockdown state: the plan as started, who started it, and the epoch boards compare. */
export const companyLockdowns = sqliteTable(
  "company_lockdowns",
  {
    companyId: integer("company_id").primaryKey(),
    epoch: integer("epoch").notNull().default(0),
    planId: integer("plan_id"),
    planName: text("plan_name").notNull().default(""),
    mode: text("mode", { enum: ["lockdown", "evacuation"] })
      .notNull()
      .default("lockdown"),
    scope: text("scope", { enum: ["company", "groups", "doors"] })
      .notNull()
      .default("company"),
    scopeIds: text("scope_ids").notNull().default("[]"),
    exemptUserIds: text("exempt_user_ids").notNull().default("[]"),
    exemptRoleIds: text("exempt_role_ids").notNull().default("[]"),
    startedByUserId: integer("started_by_user_id"),
    startedByName: text("started_by_name").notNull().default(""),
    startedAt: integer("started_at"),
    endsAt: integer("ends_at"),
    endedAt: integer("ended_at"),
    endedByName: text("ended_by_name"),
    /** The board event (a panic button) that started it; the same event sent again starts nothing. */
    triggerEventId: text("trigger_event_id"),
  },
  (t) => [
    index("company_lockdowns_ends_idx")
      .on(t.endsAt)
      .where(sql`ended_at IS NULL`),
  ],
);
