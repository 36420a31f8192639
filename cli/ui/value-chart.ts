// A small terminal chart of a value series: one column per point (the series resampled to the width),
// `height` rows of eighth-block characters. Integer arithmetic on the micros (BigInt), so the chart
// of a series is the same on every machine. Shared by the Ink screen and the plain-text output.
const EIGHTHS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** The last value of each of `width` equal slices of the series (all of it when shorter). */
function resample(values: readonly number[], width: number): number[] {
  if (values.length <= width) return [...values];
  return Array.from({ length: width }, (_, i) => values[Math.floor(((i + 1) * values.length) / width) - 1]);
}

/** Rows of the chart, top row first. A flat series is drawn at half height; an empty one is no rows. */
export function valueChart(values: readonly number[], width = 60, height = 5): string[] {
  if (values.length === 0) return [];
  const points = resample(values, width).map(BigInt);
  const min = points.reduce((a, v) => (v < a ? v : a));
  const max = points.reduce((a, v) => (v > a ? v : a));
  const steps = BigInt(height * 8);
  // Each column's level in eighths of a row, 1..height*8 (the lowest point still shows).
  const levels = points.map((v) => Number(max === min ? steps / 2n : 1n + ((v - min) * (steps - 1n)) / (max - min)));
  const rows: string[] = [];
  for (let r = height - 1; r >= 0; r--)
    rows.push(levels.map((l) => EIGHTHS[Math.max(0, Math.min(8, l - r * 8))]).join(''));
  return rows;
}
