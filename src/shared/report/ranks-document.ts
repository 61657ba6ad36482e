// `allocscope ranks --json` (schema allocscope.ranks/1): the ranks of one job side by side, each
// rank's headline figures, the skew of the peaks and the ranks that stand out, and how the files
// were read (workers, wall time). docs/ranks-json.md describes every field.

import type { RankDetail, RankFigures, RanksFinding } from '../compare/ranks';
import { deviceLabel } from '../format/words';

export const RANKS_SCHEMA = 'allocscope.ranks/1';

export interface RankEntry {
  rank: number;
  file: string;
  figures: RankFigures;
  detail: RankDetail;
}

export interface RanksDocument {
  schema: typeof RANKS_SCHEMA;
  ranks: {
    rank: number;
    file: string;
    device: number;
    device_label: string;
    peak_active_bytes: number;
    /** null: the file records no reserved bytes (a CPU profiler trace). */
    peak_reserved_bytes: number | null;
    oom: boolean;
    oom_event: number | null;
    ooms: number;
    trace_entries: number;
    peak_event: number;
    /** Null where the file records no segments (a profiler trace). */
    cached_free_at_peak_bytes: number | null;
    largest_free_at_peak_bytes: number | null;
    free_blocks_at_peak: number | null;
    steps: number;
    steps_source: 'annotations' | 'pattern' | null;
    growth_bytes_per_step: number | null;
  }[];
  median_peak_active_bytes: number;
  skew: number;
  outliers: number[];
  peak_outliers: number[];
  growth_outliers: number[];
  median_growth_bytes_per_step: number | null;
  highest_rank: number;
  oom_ranks: number[];
  /** Files that could not be read, with why; the other ranks are reported all the same. */
  refused: { file: string; message: string }[];
  workers: number;
  wall_ms: number;
}

export function ranksDocumentOf(
  entries: readonly RankEntry[],
  finding: RanksFinding,
  refused: readonly { file: string; message: string }[],
  run: { workers: number; wallMs: number },
): RanksDocument {
  return {
    schema: RANKS_SCHEMA,
    ranks: entries.map(({ rank, file, figures, detail }) => ({
      rank,
      file,
      device: figures.device,
      device_label: deviceLabel(figures.device),
      peak_active_bytes: figures.peakActiveBytes,
      peak_reserved_bytes: figures.peakReservedBytes,
      oom: figures.ooms > 0,
      oom_event: figures.oomEvent,
      ooms: figures.ooms,
      trace_entries: figures.traceEntries,
      peak_event: detail.peakEvent,
      cached_free_at_peak_bytes: detail.cachedFreeAtPeakBytes,
      largest_free_at_peak_bytes: detail.largestFreeAtPeakBytes,
      free_blocks_at_peak: detail.freeBlocksAtPeak,
      steps: detail.steps,
      steps_source: detail.stepsSource,
      growth_bytes_per_step:
        detail.growthBytesPerStep === null ? null : Math.round(detail.growthBytesPerStep),
    })),
    median_peak_active_bytes: finding.medianPeakActiveBytes,
    skew: Math.round(finding.skew * 1000) / 1000,
    outliers: finding.outliers,
    peak_outliers: finding.peakOutliers,
    growth_outliers: finding.growthOutliers,
    median_growth_bytes_per_step:
      finding.medianGrowthBytesPerStep === null
        ? null
        : Math.round(finding.medianGrowthBytesPerStep),
    highest_rank: finding.highestRank,
    oom_ranks: finding.oomRanks,
    refused: [...refused],
    workers: run.workers,
    wall_ms: Math.round(run.wallMs),
  };
}
