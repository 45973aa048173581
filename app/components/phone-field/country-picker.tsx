import { forwardRef, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { controlClassName } from "~/components/ui/input";
import { cn } from "~/utils/cn";
import { countryOptions, type CountryOption } from "~/utils/phone";

type Props = {
  /** Set by `Field` (with the aria-* props below) so the label and errors point at the text box. */
  id?: string;
  /** The posted field: the chosen country's calling code ('34'). */
  name: string;
  /** The chosen region ('ES'). */
  region: string | undefined;
  onChange: (region: string) => void;
  disabled?: boolean;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  "aria-required"?: boolean;
};

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** A country matches by its name in the reader's language, its calling code ('+34', '34') or its region code ('ES'). */
function matches(o: CountryOption, query: string): boolean {
  const q = fold(query.trim());
  if (!q) return true;
  const code = q.replace(/^\+/, "");
  return fold(o.name).includes(q) || (/^\d+$/.test(code) && o.callingCode.startsWith(code)) || o.region.toLowerCase() === q;
}

export const countryLabel = (o: CountryOption | undefined) => (o ? `${o.name} (+${o.callingCode})` : "");

/**
 * The country of a phone field: a searchable combobox (WAI-ARIA combobox with a listbox). Type a
 * name or a code to filter, arrows to move, Enter to choose, Escape to close; the choice posts its
 * calling code. Names come from the browser's own region names, so no list ships with the page.
 */
export const CountryPicker = forwardRef<HTMLInputElement, Props>(function CountryPicker({ id, name, region, onChange, disabled, ...aria }, ref) {
  const { t, i18n } = useTranslation("common");
  const options = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const selected = options.find((o) => o.region === region);
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const fallbackId = useId();
  const listId = `${id ?? fallbackId}-countries`;
  const shown = query === null ? options : options.filter((o) => matches(o, query));
  const optionId = (o: CountryOption) => `${listId}-${o.region}`;

  const openAt = (i: number) => {
    setOpen(true);
    setActive(i);
    requestAnimationFrame(() => listRef.current?.children[i]?.scrollIntoView({ block: "nearest" }));
  };
  const choose = (o: CountryOption | undefined) => {
    if (o) onChange(o.region);
    setQuery(null);
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const start = open
        ? active
        : Math.max(
            0,
            shown.findIndex((o) => o.region === region),
          );
      const step = !open ? 0 : e.key === "ArrowDown" ? 1 : -1;
      openAt(Math.min(Math.max(start + step, 0), Math.max(shown.length - 1, 0)));
    } else if (e.key === "Enter" && open) {
      e.preventDefault();
      choose(shown[active]);
    } else if (e.key === "Escape" && open) {
      e.preventDefault();
      setQuery(null);
      setOpen(false);
    }
  };

  return (
    <div className="relative">
      <input
        ref={ref}
        id={id}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && shown[active] ? optionId(shown[active]) : undefined}
        {...aria}
        autoComplete="off"
        disabled={disabled}
        maxLength={60}
        className={cn(controlClassName, "h-9 py-1")}
        value={query ?? countryLabel(selected)}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => {
          setQuery(e.target.value);
          openAt(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setQuery(null);
          setOpen(false);
        }}
      />
      <input type="hidden" name={name} value={selected?.callingCode ?? ""} />
      {open && (
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label={t("countryList")}
          className="absolute z-50 mt-1 max-h-64 w-full overflow-auto rounded-md border bg-popover p-1 text-sm shadow-md"
        >
          {shown.length === 0 && <li className="px-2 py-1.5 text-muted-foreground">{t("countryNoMatch")}</li>}
          {shown.map((o, i) => (
            <li
              key={o.region}
              id={optionId(o)}
              role="option"
              aria-selected={o.region === region}
              className={cn("flex cursor-pointer justify-between gap-2 rounded-sm px-2 py-1.5", i === active && "bg-accent text-accent-foreground")}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(o)}
              onMouseEnter={() => setActive(i)}
            >
              <span>{o.name}</span>
              <span className="text-muted-foreground">+{o.callingCode}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
