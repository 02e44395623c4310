/** One RSS reading of a process, `atSeconds` into the run. */
export interface RssSample {
  atSeconds: number;
  mib: number;
}

export interface RssTrend {
  /** Median RSS of the middle third of the run (after the warm-up third), MiB. */
  middleMedianMiB: number;
  /** Median RSS of the last third, MiB. */
  lastMedianMiB: number;
  /** How much more the last third holds than the middle third may, MiB: the larger of `minimumMarginMiB` and `marginFraction` of the middle. */
  marginMiB: number;
  /** Least-squares slope over the samples after the warm-up, MiB per minute (shown, not judged). */
  slopeMiBPerMinute: number;
  upward: boolean;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function slopePerMinute(samples: readonly RssSample[]): number {
  const meanX = samples.reduce((sum, sample) => sum + sample.atSeconds, 0) / samples.length;
  const meanY = samples.reduce((sum, sample) => sum + sample.mib, 0) / samples.length;
  let covariance = 0;
  let variance = 0;
  for (const sample of samples) {
    covariance += (sample.atSeconds - meanX) * (sample.mib - meanY);
    variance += (sample.atSeconds - meanX) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 60;
}

/**
 * Decides whether RSS kept growing over a run of `durationSeconds`. The first third is
 * warm-up (caches, JIT, V8 sizing its heap to the load) and is left out. An upward trend is
 * the median of the last third standing above the median of the middle third by more than
 * the margin: the larger of `minimumMarginMiB` and `marginFraction` of the middle median.
 * Medians, not the first and last samples, so that one reading taken just before or after a
 * major GC neither fails nor passes the run; the margin is wide enough for the GC sawtooth
 * of a steady process, and a leak shows up as the whole last third sitting higher. The
 * least-squares slope over the same samples is reported beside it for the reader.
 * Undefined when either third holds fewer than two samples (the run was too short to judge).
 */
export function rssTrend(samples: readonly RssSample[], durationSeconds: number, options: { minimumMarginMiB: number; marginFraction: number }): RssTrend | undefined {
  const middle = samples.filter((sample) => sample.atSeconds > durationSeconds / 3 && sample.atSeconds <= (2 * durationSeconds) / 3);
  const last = samples.filter((sample) => sample.atSeconds > (2 * durationSeconds) / 3);
  if (middle.length < 2 || last.length < 2) return undefined;
  const middleMedianMiB = median(middle.map((sample) => sample.mib));
  const lastMedianMiB = median(last.map((sample) => sample.mib));
  const marginMiB = Math.max(options.minimumMarginMiB, options.marginFraction * middleMedianMiB);
  return {
    middleMedianMiB,
    lastMedianMiB,
    marginMiB,
    slopeMiBPerMinute: slopePerMinute([...middle, ...last]),
    upward: lastMedianMiB - middleMedianMiB > marginMiB,
  };
}
