#!/usr/bin/env node
// access-window CLI (docs/ARCHITECTURE.md §5): JSON lines in, JSON lines out, one answer per input line.
//   eval         {"window": W, "at": ms|ISO}           -> {"open": bool, "local": "…"} | {"error": {…}}
//   occurrences  {"window": W, "from": …, "to": …}      -> {"occurrences": [[startMs, endMs], …]} | {"error": {…}}
//   version      prints the tzdata version
import { createInterface } from "node:readline";
import { core } from "../pkg/node.js";

const command = process.argv[2];

if (command === "version") {
  console.log(core.tzdataVersion());
} else if (command === "eval" || command === "occurrences") {
  await answerLines(command);
} else {
  process.stderr.write("usage: access-window eval|occurrences|version  (JSON lines on stdin)\n");
  process.exit(2);
}

async function answerLines(op) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let batch = [];
  for await (const line of lines) {
    if (line.trim() === "") continue;
    // The core answers malformed input with an error line, so a bad line never stops the run.
    batch.push(core.callJson(op, line));
    if (batch.length >= 1000) await write(batch);
  }
  await write(batch);

  async function write(list) {
    if (list.length === 0) return;
    batch = [];
    if (!process.stdout.write(list.join("\n") + "\n")) await new Promise((r) => process.stdout.once("drain", r));
  }
}
