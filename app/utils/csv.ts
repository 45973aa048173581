/**
 * CSV as people's spreadsheets write it (RFC 4180 quoting), for the reports the console writes and the
 * files it reads (decision 0089). Client-safe: the import page reads the file in the browser too.
 */

/** A spreadsheet runs a cell that starts with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: a cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading
 * apostrophe so it stays text; quoted when it holds the separator, a quote or a line break.
 */
export function csvCell(value: unknown, separator = ","): string {
  let s = value == null ? "" : String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return s.includes(separator) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One line of cells (no line break). */
export const csvLine = (values: readonly unknown[], separator = ","): string => values.map((v) => csvCell(v, separator)).join(separator);

/** The cell as it was before `csvCell` kept it from being a formula: a file we wrote reads back as what we exported. */
export const unneutralised = (cell: string): string => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** A record of the file: its cells and the line it starts on (1-based, the header is line 1). */
export type CsvRecord = { line: number; cells: string[] };

export type CsvParse =
  { ok: true; separator: CsvSeparator; records: CsvRecord[] } | { ok: false; problem: "unterminatedQuote"; line: number } | { ok: false; problem: "tooManyRows"; rows: number };

export type CsvSeparator = "," | ";" | "\t";

/**
 * The separator of the file, from its first line outside quotes: the one it has most of among `,`,
 * `;` (what a Spanish or German spreadsheet writes) and a tab (cells pasted from a spreadsheet);
 * `,` when none.
 */
export function detectSeparator(text: string): CsvSeparator {
  const counts = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && (ch === "," || ch === ";" || ch === "\t")) counts[ch]++;
  }
  if (counts["\t"] > counts[","] && counts["\t"] > counts[";"]) return "\t";
  return counts[";"] > counts[","] ? ";" : ",";
}

/**
 * The records of a CSV text: a leading byte-order mark is dropped, the separator detected, quoted cells
 * may hold separators, quotes ("") and line breaks; CRLF, LF and CR all end a line. Blank lines are
 * skipped. Stops with `tooManyRows` past `maxRecords` records (the header counts as one).
 */
export function parseCsv(input: string, maxRecords = Number.POSITIVE_INFINITY): CsvParse {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const separator = detectSeparator(text);
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = "";
  let line = 1;
  let start = 1;
  let quoted = false;
  let quoteLine = 0;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0].trim() !== "") records.push({ line: start, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === "\n" || (ch === "\r" && text[i + 1] !== "\n")) line++;
        cell += ch;
      }
    } else if (ch === '"' && cell.trim() === "") {
      // A quote opens a quoted cell only at its start (spaces before it are dropped, as spreadsheets do).
      cell = "";
      quoted = true;
      quoteLine = line;
    } else if (ch === separator) {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      if (records.length > maxRecords) return { ok: false, problem: "tooManyRows", rows: records.length - 1 };
      line++;
      start = line;
    } else cell += ch;
  }
  if (quoted) return { ok: false, problem: "unterminatedQuote", line: quoteLine };
  endRecord();
  if (records.length > maxRecords) return { ok: false, problem: "tooManyRows", rows: records.length - 1 };
  return { ok: true, separator, records };
}
