/** Latency summaries in milliseconds, shared by the load worker and the orchestrator. */
export interface Latency {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(samples: number[]): Latency {
  if (samples.length === 0) return { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
  const sorted = Float64Array.from(samples).sort();
  // Nearest-rank percentile: the smallest sample with at least p% of samples at or below it.
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    p50: round(at(50)),
    p90: round(at(90)),
    p99: round(at(99)),
    max: round(sorted[sorted.length - 1]),
    mean: round(sum / sorted.length),
  };
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
