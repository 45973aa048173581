import { NavLink, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, DialogContent, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Icon } from "~/components/ui/icons";
import { cn } from "~/utils/cn";
import type { HeaderEntry } from "./main-nav";
import { NAV_ICONS } from "./nav-icons";

const MenuIcon = () => (
  <Icon className="size-5">
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Icon>
);

/**
 * Phones: a menu button opens a side sheet listing every entry. It is a modal dialog, so focus moves
 * into it, Tab stays inside, Escape closes it and focus returns to the button; following a link closes it.
 */
export function MobileNav({ entries }: { entries: readonly HeaderEntry[] }) {
  const { t } = useTranslation("common");
  const { pathname, search } = useLocation();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [pathname, search]);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger
        className="grid size-9 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:hidden"
        data-testid="nav-menu-button"
      >
        <MenuIcon />
        <span className="sr-only">{t("nav.openMenu")}</span>
      </DialogTrigger>
      <DialogContent
        aria-describedby={undefined}
        closeLabel={t("close")}
        className="top-0 left-0 h-dvh max-h-dvh w-72 max-w-[85vw] translate-x-0 translate-y-0 content-start rounded-none border-y-0 border-l-0 p-4"
        data-testid="nav-sheet"
      >
        <DialogTitle>{t("nav.menuTitle")}</DialogTitle>
        <nav aria-label={t("mainNavigation")}>
          <ul className="space-y-1">
            {entries.map((entry) => {
              const EntryIcon = NAV_ICONS[entry.key];
              return (
                <li key={entry.key}>
                  <NavLink
                    to={entry.to}
                    end={entry.to === "/"}
                    data-testid={`sheet-nav-${entry.key}`}
                    className={({ isActive }) =>
                      cn(
                        "flex items-center gap-3 rounded-md px-3 py-2.5 text-sm text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                        isActive && "bg-muted font-medium text-foreground",
                      )
                    }
                  >
                    {EntryIcon && <EntryIcon className="size-5" />}
                    {t(`nav.${entry.key}`)}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </nav>
      </DialogContent>
    </Dialog>
  );
}
