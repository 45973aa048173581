/**
 * Every admin API call, by feature. A feature adds its table here; the dispatcher and the
 * OpenAPI document both read this list.
 */
import type { Endpoint } from "./define.server";
import { activityEndpoints } from "./endpoints/activity.server";
import { alertEndpoints } from "./endpoints/alerts.server";
import { apiKeyEndpoints } from "./endpoints/api-keys.server";
import { auditEndpoints } from "./endpoints/audit.server";
import { authEndpoints } from "./endpoints/auth.server";
import { authenticatorEndpoints } from "./endpoints/authenticator.server";
import { ssoEndpoints } from "./endpoints/sso.server";
import { passkeyEndpoints } from "./endpoints/passkeys.server";
import { cellEndpoints } from "./endpoints/cells.server";
import { companyEndpoints } from "./endpoints/companies.server";
import { companyRequestEndpoints } from "./endpoints/company-requests.server";
import { deviceLifecycleEndpoints } from "./endpoints/device-lifecycle.server";
import { doorAlarmEndpoints } from "./endpoints/door-alarms.server";
import { deviceCommandEndpoints } from "./endpoints/device-commands.server";
import { deviceStockEndpoints } from "./endpoints/device-stock.server";
import { deviceGroupEndpoints } from "./endpoints/device-groups.server";
import { deviceTypeEndpoints } from "./endpoints/device-types.server";
import { holidayEndpoints } from "./endpoints/holidays.server";
import { customFieldEndpoints } from "./endpoints/custom-fields.server";
import { directoryEndpoints } from "./endpoints/directory.server";
import { deviceEndpoints } from "./endpoints/devices.server";
import { invoiceEndpoints } from "./endpoints/invoices.server";
import { mailerEndpoints } from "./endpoints/mailer.server";
import { mobileEndpoints as phoneCalls } from "./endpoints/mobile.server";
import { otaEndpoints } from "./endpoints/ota.server";
import { referenceEndpoints } from "./endpoints/reference.server";
import { fleetEndpoints } from "./endpoints/fleet.server";
import { lockdownEndpoints } from "./endpoints/lockdown.server";
import { roleEndpoints } from "./endpoints/roles.server";
import { settingsEndpoints } from "./endpoints/settings.server";
import { mobileSupportEndpoints, supportEndpoints } from "./endpoints/support.server";
import { userImportEndpoints } from "./endpoints/user-import.server";
import { deviceExportEndpoints } from "./endpoints/device-export.server";
import { supportAccessEndpoints } from "./endpoints/support-access.server";
import { usersEndpoints } from "./endpoints/users.server";
import { guestPassEndpoints, visitorPassEndpoints } from "./endpoints/visitor-passes.server";
import { webhookEndpoints } from "./endpoints/webhooks.server";

export const ADMIN_BASE = "/api/admin";
export const USER_BASE = "/api/user";
export const MOBILE_BASE = "/api/mobile";

export const adminEndpoints: readonly Endpoint[] = [
  ...authEndpoints,
  ...authenticatorEndpoints,
  ...passkeyEndpoints,
  ...referenceEndpoints,
  ...deviceEndpoints,
  ...deviceGroupEndpoints,
  ...usersEndpoints,
  ...otaEndpoints,
  ...settingsEndpoints,
  ...activityEndpoints,
  ...companyEndpoints,
  ...cellEndpoints,
  ...roleEndpoints,
  ...deviceTypeEndpoints,
  ...companyRequestEndpoints,
  ...mailerEndpoints,
  ...invoiceEndpoints,
  ...supportEndpoints,
  ...deviceStockEndpoints,
  ...deviceLifecycleEndpoints,
  ...alertEndpoints,
  ...deviceCommandEndpoints,
  ...webhookEndpoints,
  ...doorAlarmEndpoints,
  ...lockdownEndpoints,
  ...directoryEndpoints,
  ...ssoEndpoints,
  ...apiKeyEndpoints,
  ...holidayEndpoints,
  ...customFieldEndpoints,
  ...visitorPassEndpoints,
  ...fleetEndpoints,
  ...userImportEndpoints,
  ...deviceExportEndpoints,
  ...supportAccessEndpoints,
];

export const userEndpoints: readonly Endpoint[] = [...auditEndpoints, ...mobileSupportEndpoints];

/** The phone app's calls; they take only mobile sessions (dispatch's `sessionKinds`). The ticket call is also here, for the phone's own session. */
export const mobileEndpoints: readonly Endpoint[] = [...phoneCalls, ...mobileSupportEndpoints, ...guestPassEndpoints];
