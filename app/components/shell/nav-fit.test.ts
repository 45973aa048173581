import { describe, expect, it } from "vitest";
import { fitCount } from "./nav-fit";

describe("fitCount", () => {
  it("shows every entry when they all fit, without room for More", () => {
    expect(fitCount([100, 100, 100], 308, 4, 80)).toBe(3);
  });

  it("keeps room for More once one entry does not fit", () => {
    // 3 × 100 + 2 gaps = 308 > 307; with More (80): 80 + 4 + 100 + 4 + 100 = 288 fits two.
    expect(fitCount([100, 100, 100], 307, 4, 80)).toBe(2);
  });

  it("moves everything into More when not even the first entry fits beside it", () => {
    expect(fitCount([100, 100], 150, 4, 80)).toBe(0);
  });

  it("keeps list order: a narrow later entry does not jump ahead of a wide one", () => {
    expect(fitCount([50, 300, 20], 200, 0, 60)).toBe(1);
  });

  it("handles an empty list", () => {
    expect(fitCount([], 0, 4, 80)).toBe(0);
  });
});
