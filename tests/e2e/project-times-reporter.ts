import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Prints, when the run ends, each project's test count and summed test time, so the gate's summary
 * shows which part of the end-to-end run grew (scripts/test.sh prints the run's wall time).
 */
export default class ProjectTimesReporter implements Reporter {
  private readonly projects = new Map<string, { tests: number; ms: number }>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const name = test.parent.project()?.name ?? "";
    const entry = this.projects.get(name) ?? { tests: 0, ms: 0 };
    entry.tests += 1;
    entry.ms += result.duration;
    this.projects.set(name, entry);
  }

  onEnd(): void {
    console.log("\nSummed test time by project (two workers share the cores):");
    for (const [name, { tests, ms }] of this.projects) console.log(`  ${String(Math.round(ms / 1000)).padStart(5)} s  ${String(tests).padStart(3)} tests  ${name}`);
  }
}
