/**
 * The search picker's logic without React: which options show for a search, and what a key does.
 * Kept apart so the keyboard contract is unit-tested (search-picker-state.test.ts).
 */

/** An entry: `value` identifies it (and is posted), `label` is what people read, `detail` tells two alike apart. */
export type PickerOption = { value: string; label: string; detail?: string | null };

/** Case- and accent-blind text, so "peru" finds "Perú". */
export const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The default match of a list filtered in the page: the search inside the label or the detail. */
export const matchesText = (o: PickerOption, query: string) => fold(`${o.label} ${o.detail ?? ""}`).includes(fold(query.trim()));

/**
 * What the list offers: the pinned entry (e.g. "Any user") when it matches, then the results; in the
 * multiple mode without what is already chosen. `results` are already narrowed when the server searched.
 */
export function visibleOptions(args: {
  results: readonly PickerOption[];
  query: string;
  chosen: readonly PickerOption[];
  multiple: boolean;
  pinned?: PickerOption;
}): PickerOption[] {
  const { results, query, chosen, multiple, pinned } = args;
  const taken = new Set(multiple ? chosen.map((o) => o.value) : []);
  const head = pinned && matchesText(pinned, query) ? [pinned] : [];
  return [...head, ...results].filter((o) => !taken.has(o.value));
}

export type PickerState = {
  open: boolean;
  /** The highlighted entry's index in the shown list. */
  active: number;
  /** The typed search; null while nothing is typed (a single choice then reads in the box). */
  query: string | null;
};

export const CLOSED: PickerState = { open: false, active: 0, query: null };

/** Where the highlight starts when the list opens: on the single choice if it shows, else on the first entry. */
export function startIndex(shown: readonly PickerOption[], selected: PickerOption | undefined): number {
  return Math.max(0, selected ? shown.findIndex((o) => o.value === selected.value) : 0);
}

export type KeyResult = {
  state: PickerState;
  /** The entry to choose (index in the shown list). */
  choose?: number;
  /** Backspace in an empty search of the multiple mode: take the last chip away. */
  removeLast?: boolean;
  /** The key was the picker's, so its default (submitting the form, closing a dialog) must not run. */
  handled: boolean;
};

/**
 * One key in the box (the WAI-ARIA combobox pattern): arrows open the list or move the highlight, Enter
 * chooses the highlighted entry of an open list, Escape closes an open list and drops the search, and
 * Backspace in an empty search of the multiple mode removes the last chip. `start` is where the
 * highlight goes when an arrow opens the list. Enter on a closed list is left to the form unless
 * `keepEnter` (a form that must not be sent from here).
 */
export function pickerKey(state: PickerState, key: string, ctx: { count: number; multiple: boolean; chosenCount: number; start: number; keepEnter?: boolean }): KeyResult {
  const last = Math.max(ctx.count - 1, 0);
  switch (key) {
    case "ArrowDown":
    case "ArrowUp": {
      if (!state.open) return { state: { ...state, open: true, active: Math.min(ctx.start, last) }, handled: true };
      const step = key === "ArrowDown" ? 1 : -1;
      return { state: { ...state, active: Math.min(Math.max(state.active + step, 0), last) }, handled: true };
    }
    case "Home":
    case "End":
      if (!state.open) return { state, handled: false };
      return { state: { ...state, active: key === "Home" ? 0 : last }, handled: true };
    case "Enter":
      if (!state.open) return { state, handled: !!ctx.keepEnter };
      if (ctx.count === 0) return { state, handled: true };
      return { state, choose: Math.min(state.active, last), handled: true };
    case "Escape":
      if (!state.open) return { state, handled: false };
      return { state: CLOSED, handled: true };
    case "Backspace":
      if (ctx.multiple && !state.query && ctx.chosenCount > 0) return { state, removeLast: true, handled: false };
      return { state, handled: false };
    default:
      return { state, handled: false };
  }
}

/** The state after an entry is chosen: a single choice closes the list, the multiple mode stays open for the next. */
export const afterChoice = (multiple: boolean): PickerState => ({ open: multiple, active: 0, query: null });
