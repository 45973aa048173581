import { NavLink, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { ChevronDownIcon } from "~/components/ui/icons";
import { cn } from "~/utils/cn";
import { fitCount } from "./nav-fit";
import { NAV_ICONS } from "./nav-icons";

export type HeaderEntry = { key: string; to: string };

const GAP_PX = 4; // gap-1
const entryClass =
  "flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";
const activeClass = "bg-muted font-medium text-foreground";

// Measuring must happen before paint so the row never flashes the entries that will move; on the server there is nothing to measure.
const useBrowserLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

export function isActive(to: string, pathname: string): boolean {
  return to === "/" ? pathname === "/" : pathname === to || pathname.startsWith(`${to}/`);
}

function EntryBody({ entry, label }: { entry: HeaderEntry; label: string }) {
  const Icon = NAV_ICONS[entry.key];
  return (
    <>
      {Icon && <Icon className="size-5" />}
      <span>{label}</span>
    </>
  );
}

/**
 * The header's entries on tablets and desktops. Every entry keeps its label; the ones that do not fit
 * the row (measured, so long Spanish labels and new entries are handled alike) move into a "More" menu
 * at its end, in list order, so no entry is ever hidden without a way to reach it.
 */
export function MainNav({ entries }: { entries: readonly HeaderEntry[] }) {
  const { t } = useTranslation("common");
  const { pathname } = useLocation();
  const navRef = useRef<HTMLElement>(null);
  const measureRef = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(entries.length);

  const measure = useCallback(() => {
    const nav = navRef.current;
    const layer = measureRef.current;
    if (!nav || !layer) return;
    const widths = Array.from(layer.querySelectorAll<HTMLElement>("[data-measure-entry]"), (el) => el.getBoundingClientRect().width);
    const more = layer.querySelector<HTMLElement>("[data-measure-more]")?.getBoundingClientRect().width ?? 0;
    setShown(fitCount(widths, nav.clientWidth, GAP_PX, more));
  }, []);

  useBrowserLayoutEffect(() => {
    measure();
    const observer = new ResizeObserver(measure);
    if (navRef.current) observer.observe(navRef.current);
    if (measureRef.current) observer.observe(measureRef.current); // labels change width when web fonts arrive
    return () => observer.disconnect();
  }, [measure, entries]);

  const visible = entries.slice(0, shown);
  const overflow = entries.slice(shown);
  const overflowActive = overflow.some((e) => isActive(e.to, pathname));
  return (
    <nav ref={navRef} aria-label={t("mainNavigation")} className="relative hidden min-w-0 flex-1 items-center gap-1 overflow-hidden md:flex" data-testid="main-nav">
      {visible.map((entry) => (
        <NavLink key={entry.key} to={entry.to} end={entry.to === "/"} data-testid={`nav-${entry.key}`} className={({ isActive }) => cn(entryClass, isActive && activeClass)}>
          <EntryBody entry={entry} label={t(`nav.${entry.key}`)} />
        </NavLink>
      ))}
      {overflow.length > 0 && (
        // Not modal: a modal menu hides the rest of the page with aria-hidden while focusable parts (the skip link) remain.
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger className={cn(entryClass, overflowActive && activeClass)} data-testid="nav-more">
            {t("nav.more")}
            <ChevronDownIcon className="size-4" />
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start" className="w-56">
            {overflow.map((entry) => (
              <DropdownMenuItem key={entry.key} asChild>
                <NavLink to={entry.to} end={entry.to === "/"} data-testid={`nav-${entry.key}`} className={({ isActive }) => cn(isActive && "font-medium")}>
                  <EntryBody entry={entry} label={t(`nav.${entry.key}`)} />
                </NavLink>
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      )}
      {/* Off-screen copies at full width: what each entry and the More button would take in the row. */}
      <div ref={measureRef} aria-hidden="true" className="invisible absolute top-0 left-0 flex w-max gap-1">
        {entries.map((entry) => (
          <span key={entry.key} data-measure-entry="" className={cn(entryClass, "font-medium")}>
            <EntryBody entry={entry} label={t(`nav.${entry.key}`)} />
          </span>
        ))}
        <span data-measure-more="" className={cn(entryClass, "font-medium")}>
          {t("nav.more")}
          <ChevronDownIcon className="size-4" />
        </span>
      </div>
    </nav>
  );
}
