/**
 * A role's rights: action flags plus one flag per module (the admin API's getUserPermissions sends them in
 * the spec's names, mapped in `app/api/endpoints/auth.server.ts`). Shared by server guards and the UI, so
 * what is hidden and what is refused never disagree. `permissionAll` grants every action inside the
 * modules a role has; it does not add modules.
 */
export const MODULES = [
  "users",
  "devices",
  "device_group",
  "activity",
  "support",
  "company_settings",
  "change_password",
  "company",
  "role",
  "deviceType",
  "var_panel",
  "billing_portal",
] as const;
export type ModuleKey = (typeof MODULES)[number];
export type Action = "view" | "add" | "modify" | "delete";

export type Permissions = {
  permissionAll: boolean;
  permissionAdd: boolean;
  permissionModify: boolean;
  permissionDelete: boolean;
  permissionView: boolean;
} & Record<ModuleKey, boolean>;

export const NO_PERMISSIONS: Permissions = Object.freeze({
  permissionAll: false,
  permissionAdd: false,
  permissionModify: false,
  permissionDelete: false,
  permissionView: false,
  ...Object.fromEntries(MODULES.map((m) => [m, false])),
}) as Permissions;

const ACTION_FLAG = {
  add: "permissionAdd",
  modify: "permissionModify",
  delete: "permissionDelete",
} as const;

export function canAct(p: Permissions, action: Action): boolean {
  if (action === "view") return true;
  return p.permissionAll || p[ACTION_FLAG[action]];
}

/** May the holder use `module` (any of `modules`) for `action`? */
export function can(p: Permissions, modules: ModuleKey | readonly ModuleKey[], action: Action = "view"): boolean {
  const list = typeof modules === "string" ? [modules] : modules;
  return list.some((m) => p[m]) && canAct(p, action);
}

export type CompanyType = "ec" | "var" | "oem" | "root";

/** VAR Panel needs the module and a reseller or root company (docs/ARCHITECTURE.md §3). */
export const canUseVarPanel = (p: Permissions, type: CompanyType) => p.var_panel && (type === "var" || type === "root");

/**
 * Who reads a company's activity log: the activity module's holders, and the platform administrator (the root
 * company's company module), for whom that log is the platform's audit trail, read-only (decision 0071).
 */
export const canReadActivity = (p: Permissions, type: CompanyType) => can(p, "activity") || (type === "root" && can(p, "company"));

/** A company request is a reseller's: root adds companies itself and decides the requests (decision 0056). */
export const canRequestCompany = (p: Permissions, type: CompanyType) => type === "var" && can(p, "var_panel", "add");

export type NavItem = { key: string; to: string; modules: readonly ModuleKey[] };

/**
 * Header icons and home tiles: the company module gets the platform set, everyone else the company set.
 * An entry is listed once its screen exists, so no menu leads nowhere.
 */
export function navItems(p: Permissions, type?: CompanyType): NavItem[] {
  if (p.company) {
    return [
      { key: "company", to: "/company", modules: ["company"] },
      // Every customer's boards' health (decision 0091).
      ...(type === "root" ? [{ key: "fleet", to: "/fleet", modules: ["company"] as const }] : []),
      { key: "ota", to: "/ota", modules: ["company"] },
      { key: "deviceType", to: "/deviceType", modules: ["company"] },
      { key: "adminSupport", to: "/adminSupport", modules: ["company"] },
      // Only the root company registers new boards into stock (decision 0022).
      ...(type === "root" && can(p, "company", "add") ? [{ key: "registerDevices", to: "/registerDevices", modules: ["company"] as const }] : []),
      // Gateway cells are the platform's (decision 0065).
      ...(type === "root" ? [{ key: "cells", to: "/cells", modules: ["company"] as const }] : []),
      // The platform's audit trail is the root company's own activity log (decision 0071).
      ...(type === "root" ? [{ key: "audit", to: "/activity", modules: ["company"] as const }] : []),
      ...(p.role ? [{ key: "role", to: "/role", modules: ["role"] as const }] : []),
    ];
  }
  const all: NavItem[] = [
    { key: "users", to: "/users", modules: ["users"] },
    { key: "devices", to: "/devices", modules: ["devices"] },
    { key: "deviceGroups", to: "/deviceGroups", modules: ["device_group"] },
    { key: "activity", to: "/activity", modules: ["activity"] },
    // The activity module also gates alerts (spec part 1 §6).
    { key: "alerts", to: "/alerts", modules: ["activity"] },
    { key: "support", to: "/support", modules: ["support"] },
    { key: "companySettings", to: "/companySettings", modules: ["company_settings"] },
    { key: "role", to: "/role", modules: ["role"] },
    // A reseller's business is in the main navigation, not only in the user menu (decision 0056).
    ...(type === "var" && canUseVarPanel(p, type)
      ? [
          { key: "varPanel", to: "/varPanel", modules: ["var_panel"] as const },
          { key: "fleet", to: "/fleet", modules: ["var_panel"] as const },
          { key: "deviceStock", to: "/viewDeviceStock", modules: ["var_panel"] as const },
        ]
      : []),
    ...(type === "var" ? [{ key: "billingPortal", to: "/billingPortal", modules: ["billing_portal"] as const }] : []),
  ];
  return all.filter((i) => can(p, i.modules));
}
