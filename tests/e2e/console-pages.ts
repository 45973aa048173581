import type { DemoLogin } from "./fixtures";

/**
 * Every console screen, with the demo login that may open it: the accessibility spec visits each one.
 * Add a new screen here. A screen that needs a record id (`via`) is reached through the first link to it
 * on its list (and, with `then`, the first link on that page), so the spec never depends on seed ids.
 * `phone`: the phone web app, signed in through its own form with the entry's login.
 */
export type ConsolePage = { who: DemoLogin | null; path: string; via?: { list: string; hrefPrefix: string; then?: string }; phone?: boolean };

export const CONSOLE_PAGES: readonly ConsolePage[] = [
  // Signed out
  { who: null, path: "/login" },
  { who: null, path: "/forgotPassword" },
  { who: null, path: "/terms" },
  { who: null, path: "/m" },
  { who: null, path: "/twoFactorAuthentication" },
  { who: null, path: "/ResetExpiredPassword" },
  // The link a reset mail sends; the form renders for any id and the id is checked on submit.
  { who: null, path: "/resetPassword/a11y-check" },
  // Company admin
  { who: "acme", path: "/" },
  { who: "acme", path: "/users" },
  { who: "acme", path: "/addUser" },
  { who: "acme", path: "/importUsers" },
  { who: "acme", path: "/modifyUser", via: { list: "/users", hrefPrefix: "/modifyUser?id=" } },
  { who: "acme", path: "/devices" },
  // Filtered to a state with no rows: the empty state with the filter bar.
  { who: "acme", path: "/devices?q=no-such-device&online=1" },
  { who: "acme", path: "/deviceDetails", via: { list: "/devices", hrefPrefix: "/deviceDetails?id=" } },
  { who: "acme", path: "/deviceGroups" },
  { who: "acme", path: "/addDeviceGroup" },
  { who: "acme", path: "/modifyDeviceGroup", via: { list: "/deviceGroups", hrefPrefix: "/modifyDeviceGroup?id=" } },
  { who: "acme", path: "/activity" },
  { who: "acme", path: "/activityDetails", via: { list: "/activity", hrefPrefix: "/activityDetails?id=" } },
  { who: "acme", path: "/companySettings" },
  { who: "acme", path: "/directorySync" },
  { who: "acme", path: "/companyMailerSetting" },
  { who: "acme", path: "/apiKeys" },
  { who: "acme", path: "/addApiKey" },
  { who: "acme", path: "/supportAccess" },
  { who: "acme", path: "/addSupportAccess" },
  { who: "acme", path: "/webhooks" },
  { who: "acme", path: "/addWebhook" },
  { who: "acme", path: "/modifyWebhook", via: { list: "/webhooks", hrefPrefix: "/modifyWebhook?id=" } },
  { who: "acme", path: "/webhookDeliveries", via: { list: "/webhooks", hrefPrefix: "/webhookDeliveries?id=" } },
  { who: "acme", path: "/lockdown" },
  { who: "acme", path: "/addLockdownPlan" },
  { who: "acme", path: "/modifyLockdownPlan", via: { list: "/lockdown", hrefPrefix: "/modifyLockdownPlan?id=" } },
  { who: "acme", path: "/scheduleOpen" },
  { who: "acme", path: "/holidayCalendars" },
  { who: "acme", path: "/addHolidayCalendar" },
  { who: "acme", path: "/modifyHolidayCalendar", via: { list: "/holidayCalendars", hrefPrefix: "/modifyHolidayCalendar?id=" } },
  { who: "acme", path: "/customFields" },
  { who: "acme", path: "/addCustomField" },
  { who: "beta", path: "/modifyCustomField", via: { list: "/customFields", hrefPrefix: "/modifyCustomField?id=" } },
  { who: "acme", path: "/visitorPasses" },
  // Filtered by a state (the demo has no passes: empty, unless a spec on the same console revoked one).
  { who: "acme", path: "/visitorPasses?state=revoked" },
  { who: "acme", path: "/addVisitorPass" },
  { who: "acme", path: "/visitorPassRules" },
  { who: "acme", path: "/setFobProgrammers" },
  { who: "acme", path: "/role" },
  { who: "acme", path: "/addRole" },
  { who: "acme", path: "/modifyRole", via: { list: "/role", hrefPrefix: "/modifyRole?id=" } },
  { who: "acme", path: "/assignRole" },
  { who: "acme", path: "/changePassword" },
  { who: "acme", path: "/alerts" },
  { who: "acme", path: "/doorAlarms" },
  { who: "acme", path: "/addAlert" },
  { who: "acme", path: "/modifyAlert", via: { list: "/alerts", hrefPrefix: "/modifyAlert?id=" } },
  { who: "acme", path: "/support" },
  { who: "acme", path: "/supportTicketDetails", via: { list: "/support", hrefPrefix: "/supportTicketDetails?id=" } },
  { who: "acme", path: "/supportTicketGPSDetails", via: { list: "/support", hrefPrefix: "/supportTicketDetails?id=", then: "/supportTicketGPSDetails?id=" } },
  { who: "acme", path: "/billingPortal" },
  { who: "acme", path: "/invoiceDetails", via: { list: "/billingPortal", hrefPrefix: "/invoiceDetails?id=" } },
  { who: "acme", path: "/no-such-page" },
  // Platform (root)
  { who: "root", path: "/" },
  { who: "root", path: "/company" },
  { who: "root", path: "/addCompany" },
  { who: "root", path: "/modifyCompany", via: { list: "/company", hrefPrefix: "/modifyCompany?id=" } },
  { who: "root", path: "/companyRelatedDevices", via: { list: "/company", hrefPrefix: "/companyRelatedDevices?" } },
  { who: "root", path: "/ota" },
  { who: "root", path: "/addota" },
  { who: "root", path: "/firmwareRollouts" },
  { who: "root", path: "/addFirmwareRollout" },
  { who: "root", path: "/deviceType" },
  { who: "root", path: "/addDeviceType" },
  { who: "root", path: "/modifyDeviceType", via: { list: "/deviceType", hrefPrefix: "/modifyDeviceType?id=" } },
  { who: "root", path: "/viewCompanyRequests" },
  { who: "root", path: "/adminSupport" },
  { who: "root", path: "/addFaq" },
  { who: "root", path: "/modifyFaq", via: { list: "/adminSupport?tab=faqs", hrefPrefix: "/modifyFaq?id=" } },
  { who: "root", path: "/companyRelatedInvoices", via: { list: "/company?q=Acme", hrefPrefix: "/companyRelatedInvoices?" } },
  {
    who: "root",
    path: "/companyRelatedInvoiceDetail",
    via: { list: "/company?q=Acme", hrefPrefix: "/companyRelatedInvoices?", then: "/companyRelatedInvoiceDetail?" },
  },
  { who: "root", path: "/registerDevices" },
  { who: "root", path: "/cells" },
  { who: "root", path: "/addCell" },
  { who: "root", path: "/modifyCell", via: { list: "/cells", hrefPrefix: "/modifyCell?name=" } },
  // The platform's audit trail: the root company's own log (decision 0071).
  { who: "root", path: "/activity" },
  { who: "root", path: "/activityDetails", via: { list: "/activity", hrefPrefix: "/activityDetails?id=" } },
  // Reseller
  { who: "var", path: "/" },
  { who: "var", path: "/varPanel" },
  { who: "var", path: "/fleet" },
  { who: "var", path: "/fleetBoards", via: { list: "/fleet", hrefPrefix: "/fleetBoards?company=" } },
  { who: "var", path: "/newCompanyRequest" },
  { who: "var", path: "/viewCompanyRequests" },
  { who: "var", path: "/billingPortal" },
  { who: "var", path: "/createCustomerInvoice" },
  { who: "var", path: "/viewDeviceStock" },
  { who: "var", path: "/deviceTransfer", via: { list: "/varPanel", hrefPrefix: "/deviceTransfer?" } },
  // The phone app signed in. Beta's admin: with one phone per user, the phone this binds must not be
  // the one tests/e2e/phone.spec.ts signs in with (ACME's admin).
  { who: "beta", path: "/m", phone: true },
  // A page the role may not open
  { who: "auditor", path: "/users" },
];
