import { describe, expect, it } from "vitest";
import { formatSort, parseSort } from "~/utils/sort";
import { nextSort, pageCount, pageRange, parseTableParams, tableSearch, type TableParamsOptions } from "./params";

const options: TableParamsOptions = { defaultSort: "name", sortable: ["name", "email", "lastActivity"] };

describe("parseTableParams", () => {
  it("uses defaults without params", () => {
    expect(parseTableParams("http://x/users", options)).toEqual({
      page: 1,
      pageSize: 25,
      offset: 0,
      sort: { key: "name", desc: false },
    });
  });

  it("reads valid params from a URL string, URL or URLSearchParams", () => {
    const expected = { page: 3, pageSize: 50, offset: 100, sort: { key: "lastActivity", desc: true } };
    const search = "page=3&pageSize=50&sort=-lastActivity&hideInactive=1";
    expect(parseTableParams(`http://x/users?${search}`, options)).toEqual(expected);
    expect(parseTableParams(new URL(`http://x/users?${search}`), options)).toEqual(expected);
    expect(parseTableParams(new URLSearchParams(search), options)).toEqual(expected);
    expect(parseTableParams(`/users?${search}`, options)).toEqual(expected);
  });

  it("honours a descending default sort and a custom page size", () => {
    const result = parseTableParams("http://x/a", { defaultSort: "-date", sortable: ["date"], pageSize: 100 });
    expect(result).toMatchObject({ pageSize: 100, sort: { key: "date", desc: true } });
  });

  it.each([
    ["page=0", { page: 1 }],
    ["page=-2", { page: 1 }],
    ["page=abc", { page: 1 }],
    ["page=2.5", { page: 1 }],
    ["page=1e3", { page: 1 }],
    ["page=99999999999", { page: 1 }],
    ["page=", { page: 1 }],
    ["pageSize=0", { pageSize: 25 }],
    ["pageSize=101", { pageSize: 25 }],
    ["pageSize=x", { pageSize: 25 }],
    ["pageSize=100", { pageSize: 100 }],
    ["sort=password", { sort: { key: "name", desc: false } }],
    ["sort=-", { sort: { key: "name", desc: false } }],
    ["sort=", { sort: { key: "name", desc: false } }],
    ["sort=--name", { sort: { key: "name", desc: false } }],
    ["sort=email", { sort: { key: "email", desc: false } }],
  ])("falls back on bad input: %s", (search, expected) => {
    expect(parseTableParams(new URLSearchParams(search), options)).toMatchObject(expected);
  });

  it("never throws on a malformed URL", () => {
    expect(parseTableParams("http://[bad", options).page).toBe(1);
  });

  it("computes the offset from page and page size", () => {
    expect(parseTableParams(new URLSearchParams("page=4&pageSize=10"), options).offset).toBe(30);
  });
});

describe("sort text", () => {
  it("parses and formats", () => {
    expect(parseSort("-name")).toEqual({ key: "name", desc: true });
    expect(parseSort("name")).toEqual({ key: "name", desc: false });
    expect(parseSort(null)).toBeNull();
    expect(formatSort({ key: "name", desc: true })).toBe("-name");
    expect(formatSort({ key: "name", desc: false })).toBe("name");
  });

  it("toggles direction on the same column and starts ascending on another", () => {
    expect(nextSort({ key: "name", desc: false }, "name")).toEqual({ key: "name", desc: true });
    expect(nextSort({ key: "name", desc: true }, "name")).toEqual({ key: "name", desc: false });
    expect(nextSort({ key: "name", desc: true }, "email")).toEqual({ key: "email", desc: false });
  });
});

describe("paging numbers", () => {
  it.each([
    [1, 25, 312, { from: 1, to: 25 }],
    [13, 25, 312, { from: 301, to: 312 }],
    [14, 25, 312, { from: 0, to: 0 }],
    [1, 25, 0, { from: 0, to: 0 }],
    [1, 25, 7, { from: 1, to: 7 }],
  ])("page %d of size %d with %d rows", (page, size, total, expected) => {
    expect(pageRange(page, size, total)).toEqual(expected);
  });

  it("counts pages, at least one", () => {
    expect(pageCount(312, 25)).toBe(13);
    expect(pageCount(300, 25)).toBe(12);
    expect(pageCount(0, 25)).toBe(1);
  });
});

describe("tableSearch", () => {
  it("keeps filters and sets the page", () => {
    expect(tableSearch("hideInactive=1&sort=name", { page: 3 })).toBe("?hideInactive=1&sort=name&page=3");
  });

  it("drops page=1", () => {
    expect(tableSearch("page=3&q=a", { page: 1 })).toBe("?q=a");
    expect(tableSearch("page=2", { page: 1 })).toBe("");
  });

  it("resets to page 1 when sort or page size changes", () => {
    expect(tableSearch("page=3&q=a", { sort: { key: "email", desc: true } })).toBe("?q=a&sort=-email");
    expect(tableSearch(new URLSearchParams("page=3"), { pageSize: 50 })).toBe("?pageSize=50");
  });
});
