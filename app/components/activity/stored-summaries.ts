/**
 * Summaries stored as English text when the entry was written, recognised by the producer's format
 * (the comment names it) and rendered from `activity.json` "stored.*"; names and ids inside stay as written.
 * Keep each pattern in step with its producer; a text no pattern matches is shown as stored.
 */
import type { TFunction } from "i18next";

/** [stored text, i18n key, catalogue names of the events that store it] — a free text of another event is never reworded. */
const STORED: [RegExp, string, RegExp][] = [
  [/^(?<user>.+) signed in to the console$/s, "signedInConsole", /^(?:User Logs In)$/], // services/auth.server.ts
  [/^(?<user>.+) signed in to the admin API$/s, "signedInApi", /^(?:User Logs In)$/],
  [/^(?<user>.+) was signed out after inactivity$/s, "signedOutIdle", /^(?:User Logs Out)$/],
  [/^(?<user>.+) signed out$/s, "signedOut", /^(?:User Logs Out)$/],
  [/^(?<company>.+ \([^()]*\)) de-activated$/s, "companyDeactivated", /^(?:Modified Company)$/], // services/companies.server.ts
  [/^(?<company>.+ \([^()]*\)) activated$/s, "companyActivated", /^(?:Modified Company)$/],
  [/^(?<company>.+ \([^()]*\)) moved from cell (?<from>\S+) to cell (?<to>\S+)$/s, "companyMovedCell", /^(?:Moved Company To Cell)$/], // services/cells.server.ts
  [/^Remote unlock requested for (?<door>.+)$/s, "remoteUnlock", /^(?:Remote Unlock Requested)$/], // services/device-commands.server.ts
  [/^Firmware (?<version>.+) uploaded$/s, "firmwareUploaded", /^(?:Firmware Uploaded)$/], // services/firmware.server.ts
  [/^Firmware (?<version>.+) made active$/s, "firmwareActive", /^(?:Firmware Activated)$/],
  [/^Firmware (?<version>.+) removed$/s, "firmwareRemoved", /^(?:Firmware Removed)$/],
  [/^Firmware (?<version>.+) update started for (?<door>.+)$/s, "firmwareStarted", /^(?:Firmware Update Started)$/], // services/firmware-start.server.ts
  [/^Firmware (?<version>.+) rollout started$/s, "rolloutStarted", /^(?:Firmware Rollout Started)$/], // services/firmware-rollouts.server.ts
  [/^Firmware (?<version>.+) rollout: wave (?<wave>\d+) of (?<total>\d+) opened$/s, "rolloutWaveOpened", /^(?:Firmware Rollout Wave Opened)$/],
  [/^Firmware (?<version>.+) rollout paused: (?<failed>\d+) of (?<boards>\d+) boards failed in wave (?<wave>\d+)$/s, "rolloutAutoPaused", /^(?:Firmware Rollout Paused)$/],
  [/^Firmware (?<version>.+) rollout paused$/s, "rolloutPaused", /^(?:Firmware Rollout Paused)$/],
  [/^Firmware (?<version>.+) rollout resumed$/s, "rolloutResumed", /^(?:Firmware Rollout Resumed)$/],
  [/^Firmware (?<version>.+) rollout aborted$/s, "rolloutAborted", /^(?:Firmware Rollout Aborted)$/],
  [/^Firmware (?<version>.+) rollout completed$/s, "rolloutCompleted", /^(?:Firmware Rollout Completed)$/],
  [/^Sensor (?<n>\d+) open at (?<door>.+)$/s, "sensorOpen", /^(?:Sensor \d+ Open)$/], // services/gateway-events.server.ts
  [/^Sensor (?<n>\d+) closed at (?<door>.+)$/s, "sensorClosed", /^(?:Sensor \d+ Closed)$/],
  [/^Battery at (?<percent>\d+)% on (?<door>.+)$/s, "battery", /^(?:Low Battery|Battery Good)$/],
  // A reading is "<sensor's name> <number>[ <unit>] at <door>": the first " at " after the number ends it.
  [/^(?<reading>.+? -?\d[^ ]*(?: .+?)?) at (?<door>.+)$/s, "sensorReading", /^(?:Sensor Reading)$/],
  [/^(?<door>.+) reported its location$/s, "location", /^(?:Location Reported)$/],
  [/^(?<door>.+) came online$/s, "cameOnline", /^(?:Device Online)$/], // services/board-presence-activity.server.ts
  [/^(?<door>.+) went offline$/s, "wentOffline", /^(?:Device Offline)$/],
  [/^(?<door>.+) clock is (?<seconds>\d+) s ahead$/s, "clockAhead", /^(?:Device Clock Drift)$/], // services/board-clock.server.ts
  [/^(?<door>.+) clock is (?<seconds>\d+) s behind$/s, "clockBehind", /^(?:Device Clock Drift)$/],
  [/^(?<door>.+) decides with zone data (?<tzdata>\S+), older than (?<core>\S+)$/s, "zoneDataOutdated", /^(?:Device Zone Data Outdated)$/],
  [/^Tamper detected on (?<door>.+)$/s, "tamperDetected", /^(?:Tamper Detected)$/],
  [/^Tamper cleared on (?<door>.+)$/s, "tamperCleared", /^(?:Tamper Detected)$/],
  [/^(?<amount>\d+) into the stock of (?<company>.+)$/s, "stockAdded", /^(?:Devices Registered)$/], // services/device-lifecycle.server.ts
  [/^(?<amount>\d+) from (?<company>.+) as stock$/s, "stockMovedStock", /^(?:Devices Transferred)$/], // services/device-stock.server.ts
  [/^(?<amount>\d+) from (?<company>.+) as unconfigured$/s, "stockMovedUnconfigured", /^(?:Devices Transferred)$/],
  [/^(?<group>.+): (?<device>.+) added$/s, "groupDeviceAdded", /^(?:Device Group Modified)$/], // services/device-groups.server.ts
  [/^Visitor pass for (?<guest>.+), hosted by (?<host>.+) \((?<days>[^,()]+), (?<hours>[^,()]+), one entry\)$/s, "passCreatedOnce", /^(?:Visitor Pass Created)$/], // services/visitor-passes.server.ts
  [/^Visitor pass for (?<guest>.+), hosted by (?<host>.+) \((?<days>[^,()]+), (?<hours>[^,()]+)\)$/s, "passCreated", /^(?:Visitor Pass Created)$/],
  [/^Visitor pass for (?<guest>.+) revoked$/s, "passRevoked", /^(?:Visitor Pass Revoked)$/],
  [/^(?<guest>.+) opened their visitor pass on a phone$/s, "passOpened", /^(?:Visitor Pass Opened)$/],
  [/^Visitor rules: at most (?<days>\d+) days, doors of group (?<group>\d+)$/s, "passRulesGroup", /^(?:Visitor Pass Rules Modified)$/],
  [/^Visitor rules: at most (?<days>\d+) days$/s, "passRules", /^(?:Visitor Pass Rules Modified)$/],
  // A command's id ("console.3") is the board protocol's, not the reader's: it is left out.
  [/^Command \S+ succeeded on (?<door>.+)$/s, "commandSucceeded", /^(?:Command Succeeded)$/], // services/gateway-events.server.ts
  [/^Command \S+ failed on (?<door>.+?): expired \/ device offline$/s, "commandExpired", /^(?:Command Failed)$/], // services/device-commands.server.ts
  [/^Command \S+ failed on (?<door>.+?): (?<error>.+)$/s, "commandFailedBecause", /^(?:Command Failed)$/],
  [/^Command \S+ failed on (?<door>.+)$/s, "commandFailed", /^(?:Command Failed)$/],
  // Since decision 0057: the door named, the reason in words.
  [/^Remote unlock failed on (?<door>.+?): the board did not answer within 60 s$/s, "unlockNoAnswer", /^(?:Command Failed)$/], // services/device-commands.server.ts
  [/^Remote unlock failed on (?<door>.+?): withdrawn by a lockdown$/s, "unlockLockdown", /^(?:Command Failed)$/], // services/device-commands.server.ts
  [/^Remote command succeeded on (?<door>.+)$/s, "remoteCommandSucceeded", /^(?:Command Succeeded)$/], // services/gateway-events.server.ts
  [/^Remote command failed on (?<door>.+?): (?<error>.+)$/s, "remoteCommandFailedBecause", /^(?:Command Failed)$/],
  [/^Remote command failed on (?<door>.+)$/s, "remoteCommandFailed", /^(?:Command Failed)$/],
  [/^Alert test mail to (?<count>\d+) recipient\(s\)$/s, "alertTestMail", /^(?:Mailer Test Sent)$/], // services/alerts.server.ts
  [/^(?<user>.+) signed in to the mobile app$/s, "signedInMobile", /^(?:User Logs In)$/], // services/mobile.server.ts
  [/^Unlocked with the app at (?<door>.+)$/s, "unlockedWithApp", /^(?:Unlocked With App)$/],
  [/^Scheduled open started at (?<door>.+): first person in$/s, "scheduledFirstIn", /^(?:Scheduled Open Started)$/], // services/gateway-events.server.ts
  [/^Firmware installed on (?<door>.+)$/s, "firmwareInstalled", /^(?:Firmware Installed)$/],
  [/^Firmware (?<version>\S*) download at (?<percent>\d+)% on (?<door>.+)$/s, "firmwareProgress", /^(?:Firmware Progress)$/],
  [/^(?<user>.+) registered the phone's biometric$/s, "biometricRegistered", /^(?:Phone Biometric Registered)$/], // services/phone-webauthn.server.ts
  [/^(?<user>.+): deactivated$/s, "userDeactivated", /^(?:User Modified)$/], // services/users-bulk.server.ts
  [/^(?<user>.+): reactivated$/s, "userReactivated", /^(?:User Modified)$/],
  [/^(?<user>.+) switched on an authenticator app$/s, "authenticatorEnrolled", /^(?:Authenticator App Enrolled)$/], // services/authenticator.server.ts
  [/^(?<user>.+) switched off their authenticator app$/s, "authenticatorRemoved", /^(?:Authenticator App Removed)$/],
  [/^(?<user>.+): authenticator app removed by (?<admin>.+)$/s, "authenticatorReset", /^(?:Authenticator App Reset)$/],
  [/^(?<user>.+) signed in with a recovery code$/s, "recoveryCodeUsed", /^(?:Recovery Code Used)$/], // services/auth.server.ts
  [/^(?<user>.+) added the passkey (?<name>.+)$/s, "passkeyAdded", /^(?:Passkey Added)$/], // services/passkeys.server.ts
  [/^(?<user>.+) removed the passkey (?<name>.+)$/s, "passkeyRemoved", /^(?:Passkey Removed)$/],
  [/^(?<user>.+) signed in with the passkey (?<name>.+)$/s, "passkeyUsed", /^(?:Passkey Used)$/],
  [/^(?<user>.+): (?<count>\d+) passkey\(s\) removed by (?<admin>.+)$/s, "passkeysReset", /^(?:Passkeys Reset)$/],
  [/^(?<user>.+) set the sign-in security policy to (?<policy>\w+) \((?<count>\d+) role\(s\)\)$/s, "mfaPolicyChangedRoles", /^(?:MFA Policy Changed)$/], // services/mfa-policy.server.ts
  [/^(?<user>.+) set the sign-in security policy to (?<policy>\w+)$/s, "mfaPolicyChanged", /^(?:MFA Policy Changed)$/],
  [/^(?<user>.+) signed in through single sign-on$/s, "ssoLogin", /^(?:Single Sign-On Login)$/], // services/sso/complete-sign-in.server.ts
  [/^(?<user>.+) signed in with a password as the break-glass admin$/s, "breakGlassSignIn", /^(?:Break-Glass Sign-In)$/], // services/sso/policy.server.ts
  [/^Single sign-on settings changed by (?<user>.+)$/s, "ssoModified", /^(?:Single Sign-On Modified)$/], // services/sso/settings.server.ts
];

/** The stored text in the reader's language, or null when no producer's format matches it. */
export function storedSummary(t: TFunction, eventName: string, summary: string): string | null {
  for (const [pattern, key, names] of STORED) {
    const groups = names.test(eventName) ? pattern.exec(summary)?.groups : undefined;
    // A count picks its plural form.
    if (groups) return t(`stored.${key}`, groups.count ? { ...groups, count: Number(groups.count) } : groups);
  }
  return null;
}
