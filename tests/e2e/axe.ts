import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe-core's findings on the page, or inside `include`, one line each ("[impact] rule: help →
 * targets"): the serious and critical ones, or with `allImpacts` every one. `rules` narrows the scan
 * to those rule ids (the default is axe's default rule set).
 *
 * axe runs in the page itself (legacy mode): the console renders no frames, and the default mode opens
 * a blank page for every scan to merge the frames' results, which cost most of a small screen's scan here.
 * Only violations are reported in full: axe then skips the node details of passes and incomplete
 * results, which nothing reads (six screens' tests: 119 s to 95 s).
 */
export async function axeFindings(
  page: Page,
  { include, rules, allImpacts = false }: { include?: string; rules?: readonly string[]; allImpacts?: boolean } = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ["violations"] });
  if (include) builder = builder.include(include);
  if (rules) builder = builder.withRules([...rules]);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => allImpacts || v.impact === "serious" || v.impact === "critical")
    .map((v) => `[${v.impact}] ${v.id}: ${v.help} → ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
