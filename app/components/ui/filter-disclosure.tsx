import { useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "~/utils/cn";
import { Button } from "./button";
import { ChevronDownIcon } from "./icons";

/**
 * A list's filters folded behind a "Filters (n)" button below 768 px, closed at first, so that on a
 * phone the list starts within the first screen; from 768 px the button is gone and the filters always
 * show (decision 0038). `folded` is the class that hides a part of the panel while it is closed.
 */
export function useFilterDisclosure() {
  const panelId = useId();
  const [open, setOpen] = useState(false);
  return { panelId, open, toggle: () => setOpen((o) => !o), folded: open ? "" : "max-md:hidden" };
}

/** The phone's button for a `useFilterDisclosure` panel; `active` counts the filters set now. */
export function FiltersToggle({ disclosure, active, className }: { disclosure: ReturnType<typeof useFilterDisclosure>; active: number; className?: string }) {
  const { t } = useTranslation("common");
  return (
    <Button
      type="button"
      variant="outline"
      className={cn("justify-between md:hidden", className)}
      aria-expanded={disclosure.open}
      aria-controls={disclosure.panelId}
      onClick={disclosure.toggle}
    >
      {active > 0 ? t("filters.toggleActive", { count: active }) : t("filters.toggle")}
      <ChevronDownIcon className={cn("size-4 transition-transform", disclosure.open && "rotate-180")} />
    </Button>
  );
}

/** The button and, in one element, the panel it folds; `panelClassName` lays the panel out (e.g. "contents" to keep its fields in the parent's grid). */
export function FilterDisclosure({ active, children, className, panelClassName }: { active: number; children: ReactNode; className?: string; panelClassName?: string }) {
  const disclosure = useFilterDisclosure();
  return (
    <>
      <FiltersToggle disclosure={disclosure} active={active} className={className} />
      <div id={disclosure.panelId} className={cn(disclosure.folded, panelClassName)}>
        {children}
      </div>
    </>
  );
}
