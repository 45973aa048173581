import { useEffect, useId, useRef, useState, type AriaAttributes, type KeyboardEvent } from "react";
import { cn } from "~/utils/cn";
import { controlClassName } from "./input";

/** An entry: `value` is what the form posts, `label` what people read, `detail` what tells two alike apart. */
export type ChipOption = { value: string; label: string; detail?: string };

type Texts = {
  /** The remove button of a chip, e.g. `Remove ${label}`. */
  remove: (label: string) => string;
  /** Shown when the search finds nothing. */
  noResults: string;
  /** Shown while a search is on its way. */
  searching: string;
  placeholder?: string;
};

type Props = {
  /** Posted once per chosen entry. */
  name: string;
  value: ChipOption[];
  onChange: (next: ChipOption[]) => void;
  /** The entries to filter in the browser, or… */
  options?: ChipOption[];
  /** …a URL answering `{ items: {id, label, detail?}[] }` for `&q=` (a resource route searching on the server). */
  searchUrl?: string;
  /** An entry offered above the results whatever the search (e.g. "Any user"). */
  pinned?: ChipOption;
  texts: Texts;
  id?: string;
  disabled?: boolean;
  className?: string;
} & Pick<AriaAttributes, "aria-describedby" | "aria-invalid" | "aria-required">;

const matches = (o: ChipOption, q: string) => `${o.label} ${o.detail ?? ""}`.toLowerCase().includes(q.trim().toLowerCase());

/**
 * A searchable multiple choice: the chosen entries as chips, a text box to search, and a list of results
 * (the ARIA combobox pattern). Arrow keys move in the list, Enter chooses, Escape closes, Backspace in an
 * empty box removes the last chip; each chip has its own labelled remove button. The search runs in the
 * browser over `options`, or on the server through `searchUrl`, so a company of 10,000 users never sends
 * them all to the page.
 */
export function MultiSelectChips({ name, value, onChange, options, searchUrl, pinned, texts, id, disabled, className, ...aria }: Props) {
  const own = useId();
  const inputId = id ?? own;
  const listId = `${inputId}-list`;
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [found, setFound] = useState<ChipOption[] | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // Server search: the latest answer wins, an earlier one arriving late is dropped.
  useEffect(() => {
    if (!searchUrl || !open) return;
    const control = new AbortController();
    setFound(null);
    const t = setTimeout(() => {
      fetch(`${searchUrl}${searchUrl.includes("?") ? "&" : "?"}q=${encodeURIComponent(query)}`, { signal: control.signal })
        .then((r): Promise<{ items: { id: number; label: string; detail?: string }[] }> => (r.ok ? r.json() : Promise.resolve({ items: [] })))
        .then((body) => setFound(body.items.map((x) => ({ value: String(x.id), label: x.label, detail: x.detail }))))
        .catch(() => undefined);
    }, 150);
    return () => {
      clearTimeout(t);
      control.abort();
    };
  }, [searchUrl, query, open]);

  const chosen = new Set(value.map((v) => v.value));
  const results = searchUrl ? found : (options ?? []).filter((o) => matches(o, query));
  const shown = [...(pinned && matches(pinned, query) ? [pinned] : []), ...(results ?? [])].filter((o) => !chosen.has(o.value));
  const activeIndex = Math.min(active, shown.length - 1);

  const choose = (o: ChipOption) => {
    onChange([...value, o]);
    setQuery("");
    setActive(0);
    input.current?.focus();
  };
  const remove = (v: string) => {
    onChange(value.filter((x) => x.value !== v));
    input.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      setActive((i) => Math.max(0, Math.min(shown.length - 1, i + (e.key === "ArrowDown" ? 1 : -1))));
    } else if (e.key === "Enter") {
      // Enter in the box never submits the form: it chooses the highlighted entry, if any.
      e.preventDefault();
      if (open && shown[activeIndex]) choose(shown[activeIndex]);
    } else if (e.key === "Escape") {
      if (open) e.preventDefault();
      setOpen(false);
    } else if (e.key === "Backspace" && query === "" && value.length > 0) {
      remove(value[value.length - 1].value);
    }
  };

  return (
    <div className={cn("relative", className)}>
      {value.map((v) => (
        <input key={v.value} type="hidden" name={name} value={v.value} />
      ))}
      <div className={cn(controlClassName, "min-h-9 flex-wrap items-center gap-1 py-1", disabled && "bg-muted opacity-70")}>
        {value.length > 0 && (
          <ul className="contents" aria-label={texts.placeholder}>
            {value.map((v) => (
              <li key={v.value} className="inline-flex max-w-full items-center gap-1 rounded-md border bg-secondary px-2 py-0.5 text-xs text-secondary-foreground">
                <span className="truncate">{v.label}</span>
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => remove(v.value)}
                  aria-label={texts.remove(v.label)}
                  className="rounded-sm px-0.5 leading-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && shown[activeIndex] ? `${listId}-${shown[activeIndex].value}` : undefined}
          {...aria}
          autoComplete="off"
          disabled={disabled}
          placeholder={texts.placeholder}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className="h-7 min-w-32 flex-1 bg-transparent outline-none placeholder:text-muted-foreground"
        />
      </div>
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label={texts.placeholder}
          className="absolute z-20 mt-1 max-h-64 w-full overflow-y-auto rounded-md border bg-popover p-1 text-sm text-popover-foreground shadow-md"
        >
          {shown.map((o, i) => (
            <li
              key={o.value}
              id={`${listId}-${o.value}`}
              role="option"
              aria-selected={i === activeIndex}
              // Chosen on mouse down, before the box loses focus and closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
              onMouseMove={() => setActive(i)}
              className={cn("cursor-pointer rounded-sm px-2 py-1.5", i === activeIndex && "bg-accent text-accent-foreground")}
            >
              {o.label}
              {o.detail && <span className="text-muted-foreground"> ({o.detail})</span>}
            </li>
          ))}
          {shown.length === 0 && (
            <li role="presentation" className="px-2 py-1.5 text-muted-foreground">
              {searchUrl && found === null ? texts.searching : texts.noResults}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
