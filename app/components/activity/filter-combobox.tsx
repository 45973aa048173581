import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { controlClassName } from "~/components/ui/input";
import { cn } from "~/utils/cn";

export type ComboOption = { value: string; label: string; detail?: string | null };

type Props = {
  /** Set by `Field` (with aria-describedby) so the label points at the text box. */
  id?: string;
  "aria-describedby"?: string;
  /** The posted field, once per chosen value. */
  name: string;
  multiple?: boolean;
  selected: ComboOption[];
  onChange: (selected: ComboOption[]) => void;
  /**
   * Where the options come from: `url` + `&q=` answers `{options}`. With `local`, the whole list is
   * asked for once and narrowed in the page as the reader types; otherwise the server matches each text.
   */
  source: { url: string; local?: boolean };
  /** The shown text of an option (e.g. translated); its name as sent by default. */
  labelOf?: (name: string) => string;
  placeholder: string;
  noMatch: string;
  /** The accessible name of the list and of a chosen value's remove button. */
  listLabel: string;
  removeLabel: (label: string) => string;
};

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * A searchable picker for the activity filter (WAI-ARIA combobox with a listbox): type to narrow,
 * arrows to move, Enter to choose, Escape to close. Several values show as removable chips; one value
 * reads in the box. With `search`, matches come from the server (debounced), so a company of
 * 10,000 people never ships its directory to the page.
 */
export function FilterCombobox({ id, name, multiple, selected, onChange, source, labelOf = (n) => n, placeholder, noMatch, listLabel, removeLabel, ...aria }: Props) {
  const fallbackId = useId();
  const listId = `${id ?? fallbackId}-list`;
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const fetcher = useFetcher<{ options: { value: string; name: string; detail: string | null }[] }>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const { url, local } = source;
  const asked = local ? "" : (query ?? "");

  // The server is asked when the list opens, then (unless local) each time typing pauses.
  useEffect(() => {
    if (!open || (local && fetcher.data)) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => fetcher.load(`${url}&q=${encodeURIComponent(asked)}`), asked ? 200 : 0);
    return () => clearTimeout(timer.current);
    // Listing the fetcher would ask again on every answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, local, open, asked]);

  const chosen = new Set(selected.map((o) => o.value));
  const all: ComboOption[] = (fetcher.data?.options ?? []).map((o) => ({ value: o.value, label: labelOf(o.name), detail: o.detail }));
  const q = fold(query ?? "");
  const shown = (local ? all.filter((o) => fold(o.label).includes(q) || fold(o.value).includes(q)) : all).filter((o) => !multiple || !chosen.has(o.value));
  const optionId = (i: number) => `${listId}-${i}`;
  const single = !multiple ? selected[0] : undefined;

  const choose = (o: ComboOption | undefined) => {
    if (o) onChange(multiple ? [...selected, o] : [o]);
    setQuery(null);
    setOpen(multiple ? open : false);
    setActive(0);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!open) return setOpen(true);
      setActive((i) => Math.min(Math.max(i + (e.key === "ArrowDown" ? 1 : -1), 0), Math.max(shown.length - 1, 0)));
    } else if (e.key === "Enter" && open) {
      // Enter in a closed box submits the filter; in an open list it chooses.
      e.preventDefault();
      choose(shown[active]);
    } else if (e.key === "Escape" && open) {
      e.preventDefault();
      setQuery(null);
      setOpen(false);
    } else if (e.key === "Backspace" && multiple && !query && selected.length) {
      onChange(selected.slice(0, -1));
    }
  };

  return (
    <div className="relative grid gap-1.5">
      {multiple && selected.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={listLabel}>
          {selected.map((o) => (
            <li key={o.value} className="inline-flex items-center gap-1 rounded-full border bg-muted px-2 py-0.5 text-xs">
              {o.label}
              <button
                type="button"
                className="rounded-full px-1 leading-none hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                aria-label={removeLabel(o.label)}
                onClick={() => onChange(selected.filter((x) => x.value !== o.value))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="relative">
        <input
          id={id}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && shown[active] ? optionId(active) : undefined}
          {...aria}
          autoComplete="off"
          maxLength={100}
          placeholder={placeholder}
          className={cn(controlClassName, "h-9 py-1", single && "pr-8")}
          value={query ?? single?.label ?? ""}
          onFocus={(e) => {
            e.currentTarget.select();
            setOpen(true);
          }}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            setQuery(null);
            setOpen(false);
          }}
        />
        {single && (
          <button
            type="button"
            className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full px-1 text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={removeLabel(single.label)}
            onClick={() => onChange([])}
          >
            ×
          </button>
        )}
      </div>
      {selected.map((o) => (
        <input key={o.value} type="hidden" name={name} value={o.value} />
      ))}
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label={listLabel}
          className="absolute top-full z-50 mt-1 max-h-64 w-full overflow-auto rounded-md border bg-popover p-1 text-sm shadow-md"
        >
          {shown.length === 0 && fetcher.state === "idle" && <li className="px-2 py-1.5 text-muted-foreground">{noMatch}</li>}
          {shown.map((o, i) => (
            <li
              key={o.value}
              id={optionId(i)}
              role="option"
              aria-selected={chosen.has(o.value)}
              className={cn("grid cursor-pointer rounded-sm px-2 py-1.5", i === active && "bg-accent text-accent-foreground")}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(o)}
              onMouseEnter={() => setActive(i)}
            >
              <span>{o.label}</span>
              {o.detail && <span className="text-xs break-words text-muted-foreground">{o.detail}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
