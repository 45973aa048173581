import { useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "~/utils/cn";
import { Button } from "./button";
import { ChevronDownIcon } from "./icons";

/**
 * A list's filters folded behind a "Filters (n)" button below 768 px, closed at first, so that on a
 * phone the list starts within the first screen; from 768 px the button is gone and the filters always
 * show. `children` is the panel; `panelClassName` lays it out (e.g. "contents" to keep its fields in the
 * parent's grid). `active` counts the filters set now, shown on the button while the panel is closed too.
 */
export function FilterDisclosure({ active, children, className, panelClassName }: { active: number; children: ReactNode; className?: string; panelClassName?: string }) {
  const { t } = useTranslation("common");
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="button"
        variant="outline"
        className={cn("justify-between md:hidden", className)}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        data-testid="filters-toggle"
      >
        {active > 0 ? t("filters.toggleActive", { count: active }) : t("filters.toggle")}
        <ChevronDownIcon className={cn("size-4 transition-transform", open && "rotate-180")} />
      </Button>
      <div id={id} className={cn(!open && "max-md:hidden", panelClassName)}>
        {children}
      </div>
    </>
  );
}
