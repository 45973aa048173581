import { cva } from "class-variance-authority";
import { useEffect, useId, useRef, useState, type AriaAttributes, type KeyboardEvent } from "react";
import { cn } from "~/utils/cn";
import { controlClassName } from "./input";
import { afterChoice, CLOSED, pickerKey, startIndex, visibleOptions, type PickerOption, type PickerState } from "./search-picker-state";
import { usePickerOptions, type PickerSource } from "./use-picker-options";

export type { PickerOption } from "./search-picker-state";
export type { PickerSource } from "./use-picker-options";

type Texts = {
  /** The box's placeholder. */
  placeholder?: string;
  /** The accessible name of the list of entries (and of the chips). */
  list: string;
  /** Shown when the search finds nothing. */
  noMatch: string;
  /** Shown while the server searches (nothing is shown without it). */
  searching?: string;
  /** A chip's remove button (and the single choice's clear button), e.g. `Remove ${label}`. */
  remove?: (label: string) => string;
};

type Props = {
  /** Posted once per chosen entry. */
  name: string;
  /** Several entries as chips, or one that reads in the box. */
  multiple?: boolean;
  value: readonly PickerOption[];
  onChange: (next: PickerOption[]) => void;
  source: PickerSource;
  /** An entry offered above the results whatever the search (e.g. "Any user"). */
  pinned?: PickerOption;
  /** What a chosen entry posts; its value by default. */
  postAs?: (o: PickerOption) => string;
  /** A single choice can be cleared with its × button (needs `texts.remove`). */
  clearable?: boolean;
  /** Enter never sends the form from this box (a form of several steps). */
  keepEnter?: boolean;
  texts: Texts;
  id?: string;
  disabled?: boolean;
  className?: string;
} & Pick<AriaAttributes, "aria-describedby" | "aria-invalid" | "aria-required">;

const box = cva(cn(controlClassName, "relative items-center gap-1 py-1"), {
  variants: { multiple: { true: "min-h-9 flex-wrap", false: "h-9" }, disabled: { true: "bg-muted opacity-70", false: "" } },
});

const option = cva("cursor-pointer rounded-sm px-2 py-1.5", { variants: { active: { true: "bg-accent text-accent-foreground", false: "" } } });

const removeButton =
  "rounded-sm px-1 leading-none text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none";

/**
 * The one searchable picker (the WAI-ARIA combobox pattern with a listbox; the highlighted entry is the
 * box's aria-activedescendant and is marked aria-selected): type to search, arrows (and Home, End) to
 * move, Enter to choose, Escape to close. One choice reads in the box; several show as chips, each with
 * a labelled remove button, and Backspace in an empty search removes the last. Entries come from a list
 * in the page or from the server's search (`source`), 20 at a time, so 10,000 of them never reach the page.
 */
export function SearchPicker({ name, multiple = false, value, onChange, source, pinned, postAs, clearable, keepEnter, texts, id, disabled, className, ...aria }: Props) {
  const own = useId();
  const inputId = id ?? own;
  const listId = `${inputId}-list`;
  const [state, setState] = useState<PickerState>(CLOSED);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const query = state.query ?? "";
  const { results, loading } = usePickerOptions(source, query, state.open);
  const single = multiple ? undefined : value[0];
  const shown = visibleOptions({ results, query, chosen: value, multiple, pinned });
  const active = Math.min(state.active, shown.length - 1);
  const optionId = (i: number) => `${listId}-${i}`;

  // The highlighted entry stays in sight as the arrows move it.
  useEffect(() => {
    if (state.open) list.current?.querySelector(`[id="${optionId(active)}"]`)?.scrollIntoView?.({ block: "nearest" });
    // optionId derives from listId, which never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.open, active]);

  const open = () => setState((s) => (s.open ? s : { ...s, open: true, active: startIndex(shown, single) }));
  const choose = (o: PickerOption | undefined) => {
    if (o) onChange(multiple ? [...value, o] : [o]);
    setState(afterChoice(multiple));
    if (multiple) input.current?.focus();
  };
  const remove = (o: PickerOption) => {
    onChange(value.filter((x) => x.value !== o.value));
    input.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const r = pickerKey(state, e.key, { count: shown.length, multiple, chosenCount: value.length, start: startIndex(shown, single), keepEnter });
    if (r.handled) e.preventDefault();
    if (r.choose !== undefined) return choose(shown[r.choose]);
    if (r.removeLast) return remove(value[value.length - 1]);
    setState(r.state);
  };

  return (
    <div className={cn("relative", className)}>
      {value.map((o) => (
        <input key={o.value} type="hidden" name={name} value={postAs ? postAs(o) : o.value} />
      ))}
      <div className={box({ multiple, disabled: !!disabled })}>
        {multiple && value.length > 0 && (
          <ul className="contents" aria-label={texts.list}>
            {value.map((o) => (
              <li key={o.value} className="inline-flex max-w-full items-center gap-1 rounded-md border bg-secondary px-2 py-0.5 text-xs text-secondary-foreground">
                <span className="truncate">{o.label}</span>
                {texts.remove && (
                  <button type="button" disabled={disabled} onClick={() => remove(o)} aria-label={texts.remove(o.label)} className={removeButton}>
                    <span aria-hidden="true">×</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={state.open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={state.open && shown[active] ? optionId(active) : undefined}
          {...aria}
          autoComplete="off"
          maxLength={100}
          disabled={disabled}
          placeholder={texts.placeholder}
          value={state.query ?? single?.label ?? ""}
          onFocus={(e) => {
            if (single) e.currentTarget.select();
            open();
          }}
          onClick={open}
          onChange={(e) => setState({ open: true, active: 0, query: e.target.value })}
          onKeyDown={onKeyDown}
          onBlur={() => setState(CLOSED)}
          className="h-7 min-w-24 flex-1 bg-transparent outline-none placeholder:text-muted-foreground"
        />
        {single && clearable && texts.remove && (
          <button type="button" disabled={disabled} onClick={() => onChange([])} aria-label={texts.remove(single.label)} className={removeButton}>
            <span aria-hidden="true">×</span>
          </button>
        )}
      </div>
      {state.open && (
        <ul
          ref={list}
          id={listId}
          role="listbox"
          aria-label={texts.list}
          aria-busy={loading || undefined}
          className="absolute z-50 mt-1 max-h-64 w-full overflow-y-auto rounded-md border bg-popover p-1 text-sm text-popover-foreground shadow-md"
        >
          {shown.map((o, i) => (
            <li
              key={o.value}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              // Chosen on mouse down, before the box loses focus and closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
              onMouseMove={() => i !== active && setState((s) => ({ ...s, active: i }))}
              className={option({ active: i === active })}
            >
              {o.label}
              {o.detail && <span className="break-words text-muted-foreground"> ({o.detail})</span>}
            </li>
          ))}
          {shown.length === 0 && (loading ? texts.searching : true) && (
            <li role="presentation" className="px-2 py-1.5 text-muted-foreground">
              {loading ? texts.searching : texts.noMatch}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
