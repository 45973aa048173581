import { describe, expect, it } from "vitest";
import { afterChoice, CLOSED, matchesText, pickerKey, startIndex, visibleOptions, type PickerState } from "./search-picker-state";

const opt = (value: string, label = value, detail?: string) => ({ value, label, detail });
const three = [opt("1", "Ana"), opt("2", "Bea"), opt("3", "Carla")];
const openAt = (active: number, query: string | null = null): PickerState => ({ open: true, active, query });
const ctx = { count: 3, multiple: false, chosenCount: 0, start: 0 };

describe("the search picker's keys", () => {
  it("an arrow opens a closed list on the start entry, then moves within the list's bounds", () => {
    expect(pickerKey(CLOSED, "ArrowDown", { ...ctx, start: 2 })).toEqual({ state: openAt(2), handled: true });
    expect(pickerKey(openAt(0), "ArrowDown", ctx).state.active).toBe(1);
    expect(pickerKey(openAt(2), "ArrowDown", ctx).state.active).toBe(2);
    expect(pickerKey(openAt(1), "ArrowUp", ctx).state.active).toBe(0);
    expect(pickerKey(openAt(0), "ArrowUp", ctx).state.active).toBe(0);
    expect(pickerKey(openAt(0), "End", ctx).state.active).toBe(2);
    expect(pickerKey(openAt(2), "Home", ctx).state.active).toBe(0);
  });

  it("Enter chooses the highlighted entry of an open list and is the form's on a closed one, unless kept", () => {
    expect(pickerKey(openAt(1, "b"), "Enter", ctx)).toMatchObject({ choose: 1, handled: true });
    // An empty list: Enter chooses nothing but still does not send the form.
    expect(pickerKey(openAt(0, "zz"), "Enter", { ...ctx, count: 0 })).toEqual({ state: openAt(0, "zz"), handled: true });
    expect(pickerKey(CLOSED, "Enter", ctx)).toEqual({ state: CLOSED, handled: false });
    expect(pickerKey(CLOSED, "Enter", { ...ctx, keepEnter: true }).handled).toBe(true);
  });

  it("Escape closes an open list and drops the search; on a closed list it is left to a dialog", () => {
    expect(pickerKey(openAt(2, "car"), "Escape", ctx)).toEqual({ state: CLOSED, handled: true });
    expect(pickerKey(CLOSED, "Escape", ctx).handled).toBe(false);
  });

  it("Backspace in an empty search removes the last chip, only in the multiple mode and only with chips", () => {
    const multi = { ...ctx, multiple: true, chosenCount: 2 };
    expect(pickerKey(openAt(0), "Backspace", multi).removeLast).toBe(true);
    expect(pickerKey(openAt(0, ""), "Backspace", multi).removeLast).toBe(true);
    expect(pickerKey(openAt(0, "a"), "Backspace", multi).removeLast).toBeUndefined();
    expect(pickerKey(openAt(0), "Backspace", { ...multi, chosenCount: 0 }).removeLast).toBeUndefined();
    expect(pickerKey(openAt(0), "Backspace", { ...ctx, chosenCount: 1 }).removeLast).toBeUndefined();
  });

  it("other keys are the text box's", () => {
    expect(pickerKey(openAt(1, "a"), "a", ctx)).toEqual({ state: openAt(1, "a"), handled: false });
  });

  it("a choice closes a single picker and keeps a multiple one open for the next, with the search dropped", () => {
    expect(afterChoice(false)).toEqual(CLOSED);
    expect(afterChoice(true)).toEqual({ open: true, active: 0, query: null });
  });
});

describe("what the search picker offers", () => {
  it("hides chosen entries in the multiple mode only", () => {
    expect(visibleOptions({ results: three, query: "", chosen: [three[1]], multiple: true }).map((o) => o.value)).toEqual(["1", "3"]);
    expect(visibleOptions({ results: three, query: "", chosen: [three[1]], multiple: false }).map((o) => o.value)).toEqual(["1", "2", "3"]);
  });

  it("puts the pinned entry first while it matches the search, and not once chosen", () => {
    const any = opt("any", "Any user");
    expect(visibleOptions({ results: three, query: "an", chosen: [], multiple: true, pinned: any })[0]).toBe(any);
    expect(visibleOptions({ results: three, query: "bea", chosen: [], multiple: true, pinned: any })).not.toContain(any);
    expect(visibleOptions({ results: three, query: "", chosen: [any], multiple: true, pinned: any })).not.toContain(any);
  });

  it("matches the label or the detail, blind to case and accents", () => {
    expect(matchesText(opt("pe", "Perú"), " PERU ")).toBe(true);
    expect(matchesText(opt("4", "Lab A", "LA4"), "la4")).toBe(true);
    expect(matchesText(opt("4", "Lab A", "LA4"), "dock")).toBe(false);
  });

  it("starts the highlight on the single choice when it shows, else on the first entry", () => {
    expect(startIndex(three, three[2])).toBe(2);
    expect(startIndex(three, opt("9"))).toBe(0);
    expect(startIndex(three, undefined)).toBe(0);
    expect(startIndex([], three[0])).toBe(0);
  });
});
