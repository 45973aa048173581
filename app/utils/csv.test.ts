import { describe, expect, it } from "vitest";
import { csvCell, csvLine, detectSeparator, parseCsv, unneutralised } from "./csv";

const cellsOf = (text: string) => {
  const r = parseCsv(text);
  if (!r.ok) throw new Error(r.problem);
  return r.records.map((x) => x.cells);
};

describe("csvCell", () => {
  it("keeps every cell a spreadsheet would run as a formula as text", () => {
    for (const s of ["=1+1", "+34612345678", "-2", "@SUM(A1)", "\tx", "\rx"]) expect(csvCell(s).replace(/^"|"$/g, "")).toBe(`'${s}`);
    expect(csvCell("a=b")).toBe("a=b");
  });
  it("quotes separators, quotes and line breaks", () => {
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvCell("a;b")).toBe("a;b");
    expect(csvCell("a;b", ";")).toBe('"a;b"');
    expect(csvCell(null)).toBe("");
  });
  it("reads back as the value it neutralised", () => {
    for (const s of ['=HYPERLINK("x")', "-dash", "plain", "'quoted"]) {
      const [[cell]] = cellsOf(csvLine([s]));
      expect(unneutralised(cell)).toBe(s);
    }
  });
});

describe("parseCsv", () => {
  it("drops a byte-order mark and reads CRLF, LF and CR lines, skipping blank ones", () => {
    expect(cellsOf("\uFEFFa,b\r\n1,2\n\n3,4\r5,6\r\n")).toEqual([
      ["a", "b"],
      ["1", "2"],
      ["3", "4"],
      ["5", "6"],
    ]);
  });
  it("detects ';' from the first line, outside quotes", () => {
    expect(detectSeparator("a;b;c\n1,2")).toBe(";");
    expect(detectSeparator('"a;b;c",d\n')).toBe(",");
    expect(cellsOf("name;city\nAna;Madrid, ES")).toEqual([
      ["name", "city"],
      ["Ana", "Madrid, ES"],
    ]);
  });
  it("detects a tab when the first line has more tabs than commas or semicolons (cells pasted from a spreadsheet)", () => {
    expect(detectSeparator("a\tb\tc\n1,2")).toBe("\t");
    expect(detectSeparator("a,b\tc\n")).toBe(",");
    expect(cellsOf("name\tcity\nAna\tMadrid, ES")).toEqual([
      ["name", "city"],
      ["Ana", "Madrid, ES"],
    ]);
  });
  it("reads quoted separators, doubled quotes and line breaks, and numbers records by their first line", () => {
    const r = parseCsv('a,b\n"x, ""y""","two\nlines"\nlast,row');
    expect(r).toEqual({
      ok: true,
      separator: ",",
      records: [
        { line: 1, cells: ["a", "b"] },
        { line: 2, cells: ['x, "y"', "two\nlines"] },
        { line: 4, cells: ["last", "row"] },
      ],
    });
  });
  it("refuses an unclosed quote, naming the line it opens on", () => {
    expect(parseCsv('a,b\n1,"open\n2,3')).toEqual({ ok: false, problem: "unterminatedQuote", line: 2 });
  });
  it("stops past the record limit", () => {
    expect(parseCsv("h\n1\n2\n3", 3)).toEqual({ ok: false, problem: "tooManyRows", rows: 3 });
    expect(parseCsv("h\n1\n2", 3).ok).toBe(true);
  });
});
