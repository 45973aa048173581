/**
 * How many header entries fit in `available` pixels, in list order. When all fit, all show; otherwise
 * the "More" button takes its place at the end and the entries that do not fit move into its menu.
 */
export function fitCount(widths: readonly number[], available: number, gap: number, moreWidth: number): number {
  const all = widths.reduce((sum, w) => sum + w, 0) + gap * Math.max(0, widths.length - 1);
  if (all <= available) return widths.length;
  let used = moreWidth;
  let count = 0;
  while (count < widths.length && used + gap + widths[count] <= available) {
    used += gap + widths[count];
    count++;
  }
  return count;
}
