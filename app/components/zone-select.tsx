import { useMemo, useRef, useState, type KeyboardEvent, type SelectHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { controlClassName } from "~/components/ui/input";
import { ChevronDownIcon } from "~/components/ui/icons";
import { cn } from "~/utils/cn";
import { readableZone, zoneMatches } from "~/utils/zone-label";

type Zone = { id: number; label: string; name?: string };

/** Rows shown while a search narrows the list: enough to pick from without scrolling the page away. */
const LIST_ROWS = 6;

/**
 * The time-zone picker of the key, group, alert and settings forms: a native `<select>` (it posts the
 * zone's id, takes the `Field`'s label, id and error, and keeps the platform's own picker on a phone),
 * its options read "New York (America)" and sorted by city, and a search box under it that narrows
 * the options by city, region or canonical id ("york", "America/New_York"); while it narrows, the
 * matches show as an open list to click, Enter takes the first. The chosen zone always stays listed.
 */
export function ZoneSelect({ zones, placeholder, className, ...props }: { zones: Zone[]; placeholder: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  const { t } = useTranslation("common");
  const select = useRef<HTMLSelectElement>(null);
  const [query, setQuery] = useState("");
  // The chosen id, also for an uncontrolled select (a form's defaultValue), so a search never hides it.
  const [chosen, setChosen] = useState(String(props.value ?? props.defaultValue ?? ""));
  const current = props.value !== undefined ? String(props.value) : chosen;
  // A plain comparison, not localeCompare: the server's and the browser's collation must agree for hydration.
  const options = useMemo(() => zones.map((z) => ({ ...z, text: readableZone(z.label) })).sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)), [zones]);
  const listing = query.trim() !== "";
  const matching = listing ? options.filter((o) => zoneMatches(o, query)) : options;
  const matched = new Set(matching);
  const shown = listing ? options.filter((o) => String(o.id) === current || matched.has(o)) : options;

  /** Chooses a zone as a person would: a change event, so a controlled form and Conform both hear it. */
  const choose = (id: number) => {
    const el = select.current;
    if (!el) return;
    el.value = String(id);
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    setQuery("");
  };
  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      // Enter in the search box chooses, it never submits the form.
      e.preventDefault();
      const first = shown.find((o) => String(o.id) !== current) ?? shown[0];
      if (first && listing) choose(first.id);
    } else if (e.key === "ArrowDown" && listing) {
      e.preventDefault();
      select.current?.focus();
    } else if (e.key === "Escape" && listing) {
      e.preventDefault();
      setQuery("");
    }
  };

  return (
    <div className={cn("grid w-full gap-1.5", className)}>
      <div className="relative">
        <select
          ref={select}
          {...props}
          size={listing ? Math.min(Math.max(shown.length + 1, 2), LIST_ROWS) : undefined}
          className={cn(controlClassName, listing ? "h-auto py-1" : "h-9 cursor-pointer appearance-none py-1 pr-9")}
          onChange={(e) => {
            setChosen(e.target.value);
            props.onChange?.(e);
          }}
          onClick={(e) => {
            // A click in the open list is a choice: close the list.
            if (listing && (e.target as Element).tagName === "OPTION") setQuery("");
            props.onClick?.(e);
          }}
        >
          <option value="">{placeholder}</option>
          {shown.map((o) => (
            <option key={o.id} value={o.id}>
              {o.text}
            </option>
          ))}
        </select>
        {!listing && <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-muted-foreground" />}
      </div>
      <input
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onSearchKey}
        disabled={props.disabled}
        aria-label={t("zoneSearch")}
        placeholder={t("zoneSearchPlaceholder")}
        autoComplete="off"
        maxLength={60}
        className={cn(controlClassName, "h-8 py-1 text-xs")}
      />
      {listing && matching.length === 0 && <p className="text-xs text-muted-foreground">{t("zoneNoMatch")}</p>}
    </div>
  );
}
