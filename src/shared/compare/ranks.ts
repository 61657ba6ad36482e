// A job's ranks side by side: which file is which rank (from its name: rank3.pickle,
// snapshot_rank_3.pickle, mem_r3.pickle; otherwise name order), each rank's headline figures, and
// which rank stands out: the skew of the peaks (max / median), the ranks far from the median, the
// rank that ran out first and the one that peaked highest.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import type { DeviceFigures } from '../analyzed/device-figures';
import { activePeakMoment, defaultDeviceIndex, firstOomEvent } from '../analyzed/moments';
import { allocatorStateIndexOf } from '../state/allocator-state';
import { figuresOfState, smallHoleThreshold } from '../state/memory-figures';
import { stepsOf, type StepSource } from '../steps/find-steps';
import { fitLine, stepFigures } from '../steps/step-figures';

/**
 * The files a folder of ranks may hold: snapshots as _dump_snapshot writes them (.pickle, .pkl,
 * gzipped or not). Not .json: a job's folder often holds profiler traces and reports beside them.
 */
export function isRankFileName(name: string): boolean {
  return /\.(pickle|pkl)(\.gz)?$/i.test(name) && !name.startsWith('.');
}

/** The rank a file's name gives, or null. */
export function rankOfFileName(name: string): number | null {
  const stem = name.replace(/\.(pickle|pkl|json)(\.gz)?$/i, '');
  const match =
    /(?:^|[^a-z])rank[_-]?(\d+)(?!.*rank[_-]?\d)/i.exec(stem) ??
    /(?:^|[_-])r(\d+)(?:[_-]|$)/i.exec(stem) ??
    /(?:^|[_-])(\d+)$/.exec(stem);
  return match === null ? null : Number(match[1]);
}

/**
 * The files in rank order with their ranks: from the names when every name gives one and no two
 * give the same, else in name order (numbers in names compared as numbers), ranked 0, 1, 2, …
 */
export function orderRanks(names: readonly string[]): { name: string; rank: number }[] {
  const ranks = names.map(rankOfFileName);
  const unique = new Set(ranks);
  if (ranks.every((rank) => rank !== null) && unique.size === names.length)
    return names.map((name, i) => ({ name, rank: ranks[i]! })).sort((a, b) => a.rank - b.rank);
  return [...names]
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name, rank) => ({ name, rank }));
}

/** One rank's headline figures (its device: the default one, the first with an OOM else the peak). */
export interface RankFigures {
  device: number;
  peakActiveBytes: number;
  /** null: the file records no reserved bytes (a CPU profiler trace: DeviceFigures.reservedRecorded). */
  peakReservedBytes: number | null;
  /** The first OOM's event, or null. */
  oomEvent: number | null;
  ooms: number;
  traceEntries: number;
}

/**
 * A rank's figures from its devices' headline figures (the summary's: no allocation table is
 * needed, so reading a rank costs what `summary` does); null without devices.
 */
export function rankFiguresOf(devices: readonly DeviceFigures[]): RankFigures | null {
  if (devices.length === 0) return null;
  const chosen =
    devices[defaultDeviceIndex(devices.map((figures) => ({ figures, ooms: figures.ooms })))]!;
  return {
    device: chosen.device,
    peakActiveBytes: chosen.active.peakBytes,
    peakReservedBytes: chosen.reservedRecorded ? chosen.reserved.peakBytes : null,
    oomEvent: firstOomEvent(chosen),
    ooms: chosen.ooms.length,
    traceEntries: chosen.traceEntries,
  };
}

/**
 * What a rank's table row adds to its headline figures: the allocator's state at its active peak
 * (what is cached but free there: the fragmentation that may have cost it the OOM, and the
 * largest hole) and its training steps. Needs the analysed model (the app's, `ranks`' workers').
 */
export interface RankDetail {
  /** The moment: the active peak's event. */
  peakEvent: number;
  /**
   * Null where the file records no segments (a profiler trace, a memory timeline:
   * DeviceFigures.reservedRecorded), so that no 0 B reads as measured.
   */
  cachedFreeAtPeakBytes: number | null;
  largestFreeAtPeakBytes: number | null;
  freeBlocksAtPeak: number | null;
  steps: number;
  stepsSource: StepSource | null;
  /**
   * Growth of the active bytes at the steps' ends per step (the slope `steps` fits,
   * growth_bytes_per_step), or null with fewer than three steps: too few to tell.
   */
  growthBytesPerStep: number | null;
}

export function rankDetailOf(snapshot: AnalyzedSnapshot, device: AnalyzedDevice): RankDetail {
  const peakEvent = activePeakMoment(device);
  const atPeak = figuresOfState(
    allocatorStateIndexOf(snapshot, device).stateAt(peakEvent),
    smallHoleThreshold(device),
  );
  const steps = stepsOf(snapshot, device);
  const recorded = device.figures.reservedRecorded;
  return {
    peakEvent,
    cachedFreeAtPeakBytes: recorded ? atPeak.cachedFreeBytes : null,
    largestFreeAtPeakBytes: recorded ? atPeak.largestFreeBytes : null,
    freeBlocksAtPeak: recorded ? atPeak.freeBlockCount : null,
    steps: steps.steps.length,
    stepsSource: steps.source,
    growthBytesPerStep:
      steps.steps.length >= 3
        ? fitLine(stepFigures(device, steps.steps).map((step) => step.endActiveBytes)).slope
        : null,
  };
}

export interface RanksFinding {
  /** The highest peak active over the median of the ranks' peaks (1: all alike). */
  skew: number;
  medianPeakActiveBytes: number;
  /** Ranks whose peak or growth per step stands out: peakOutliers and growthOutliers. */
  outliers: number[];
  /** Ranks whose peak active is far from the median (more than 5% of it and 3 MADs). */
  peakOutliers: number[];
  /** The median of the ranks' growth per step (those with three steps or more), or null. */
  medianGrowthBytesPerStep: number | null;
  /**
   * Ranks whose active bytes grow per step far more than the others' (beyond the median by
   * 1 MiB, 3 MADs and a quarter of the median's size at least): a rank leaking beside flat ones.
   */
  growthOutliers: number[];
  /** The rank with the highest peak active (the first of those that share it). */
  highestRank: number;
  /** Whether another rank has the same peak: then no rank is marked the highest. */
  highestShared: boolean;
  /** The ranks that ran out of memory. */
  oomRanks: number[];
}

export function ranksFinding(
  ranks: readonly {
    rank: number;
    figures: RankFigures;
    detail?: Pick<RankDetail, 'growthBytesPerStep'>;
  }[],
): RanksFinding {
  const peaks = ranks.map((entry) => entry.figures.peakActiveBytes);
  const median = medianOf(peaks);
  const mad = medianOf(peaks.map((peak) => Math.abs(peak - median)));
  const far = Math.max(median * 0.05, mad * 3);
  let highest = ranks[0];
  for (const entry of ranks)
    if (entry.figures.peakActiveBytes > (highest?.figures.peakActiveBytes ?? -Infinity))
      highest = entry;
  const peakOutliers = ranks
    .filter((entry) => Math.abs(entry.figures.peakActiveBytes - median) > far)
    .map((entry) => entry.rank);
  const growing = ranks.filter((entry) => (entry.detail?.growthBytesPerStep ?? null) !== null);
  const growths = growing.map((entry) => entry.detail!.growthBytesPerStep!);
  const medianGrowth = growths.length === 0 ? null : medianOf(growths);
  const growthMad = medianOf(growths.map((growth) => Math.abs(growth - (medianGrowth ?? 0))));
  const farGrowth = Math.max(MiB, growthMad * 3, Math.abs(medianGrowth ?? 0) * 0.25);
  const growthOutliers =
    growths.length < 3
      ? []
      : growing
          .filter((entry) => entry.detail!.growthBytesPerStep! - medianGrowth! > farGrowth)
          .map((entry) => entry.rank);
  return {
    skew: median > 0 ? Math.max(...peaks) / median : 1,
    medianPeakActiveBytes: median,
    outliers: [...new Set([...peakOutliers, ...growthOutliers])].sort((a, b) => a - b),
    peakOutliers,
    medianGrowthBytesPerStep: medianGrowth,
    growthOutliers,
    highestRank: highest?.rank ?? -1,
    highestShared: peaks.filter((peak) => peak === highest?.figures.peakActiveBytes).length > 1,
    oomRanks: ranks.filter((entry) => entry.figures.ooms > 0).map((entry) => entry.rank),
  };
}

const MiB = 2 ** 20;

function medianOf(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
