import { NavLink, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { ChevronDownIcon } from "~/components/ui/icons";
import type { ShellData } from "~/utils/shell.server";
import { MainNav } from "./main-nav";
import { MobileNav } from "./mobile-nav";
import { postAndReload } from "./post-and-reload";

/**
 * Header: the entries the user's modules allow (a row with a "More" menu on wider screens, a menu sheet on
 * phones) and the top-bar menu (docs/ARCHITECTURE.md §3 and §7.1). Generic over `navItems()`: a new entry
 * needs only its label (`nav.<key>`) and, optionally, an icon in `NAV_ICONS`.
 * Menu actions post a real form: the menu unmounts on select, taking any inner <form> with it.
 */
export function AppHeader({ data }: { data: ShellData }) {
  const { t } = useTranslation("common");
  const location = useLocation();

  const entries = [{ key: "home", to: "/" }, ...data.nav.map(({ key, to }) => ({ key, to }))];
  const other = data.lng === "en" ? "es" : "en";
  const back = location.pathname + location.search;
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-card/95 backdrop-blur print:hidden">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <MobileNav entries={entries} />
        <NavLink to="/" className="mr-2 flex shrink-0 items-center gap-2 font-semibold text-primary">
          <span aria-hidden="true" className="grid size-7 place-items-center rounded-md bg-primary text-sm text-primary-foreground">
            K
          </span>
          <span className="sr-only xl:not-sr-only">{t("appName")}</span>
        </NavLink>
        <MainNav entries={entries} />
        <div className="flex-1 md:hidden" />
        {/* Not modal, as the "More" menu: a modal menu sets aria-hidden on the page while the skip link stays focusable. */}
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger
            className="flex shrink-0 items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="user-menu"
          >
            <span className="max-w-32 truncate font-medium sm:max-w-40">{data.user.displayName}</span>
            <ChevronDownIcon className="size-4" />
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-64">
            <DropdownMenuLabel className="space-y-0.5">
              <span className="block text-xs text-muted-foreground">{data.company.name}</span>
              <span className="block">{data.user.displayName}</span>
              <span className="block text-xs font-normal text-muted-foreground">{data.user.email}</span>
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            {/* Every signed-in user, platform admins included: /modifyUser reads one's own record without the users right. */}
            <DropdownMenuItem asChild>
              <NavLink to={`/modifyUser?id=${data.user.id}`}>{t("menu.accountDetails")}</NavLink>
            </DropdownMenuItem>
            {data.menu.changePassword && (
              <DropdownMenuItem asChild>
                <NavLink to="/changePassword">{t("menu.changePassword")}</NavLink>
              </DropdownMenuItem>
            )}
            <DropdownMenuItem data-testid="switch-language" onSelect={() => postAndReload("/resources/language", { lng: other, redirectTo: back })}>
              {t("menu.language", { language: other === "es" ? "Español" : "English" })}
            </DropdownMenuItem>
            {data.menu.varPanel && (
              <DropdownMenuItem asChild>
                <NavLink to="/varPanel">{t("menu.varPanel")}</NavLink>
              </DropdownMenuItem>
            )}
            {data.menu.billingPortal && (
              <DropdownMenuItem asChild>
                <NavLink to="/billingPortal">{t("menu.billingPortal")}</NavLink>
              </DropdownMenuItem>
            )}
            {data.menu.varPanel && (
              <DropdownMenuItem asChild>
                <NavLink to="/viewDeviceStock">{t("menu.deviceStock")}</NavLink>
              </DropdownMenuItem>
            )}
            <DropdownMenuSeparator />
            <DropdownMenuItem data-testid="logout" onSelect={() => postAndReload("/logout")}>
              {t("menu.logout")}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </header>
  );
}
