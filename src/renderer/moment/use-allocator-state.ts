// The allocator state index of a device, made once per open snapshot and device, after the page's
// first paint (building its checkpoints walks the allocation table: the timeline shows first).
// Kept with the device (its derived data), so switching tabs or devices finds it again and closing
// a tab lets it go.

import { useEffect, useMemo, useState } from 'react';
import {
  allocatorStateIndexOf,
  builtAllocatorStateIndex,
  type AllocatorState,
  type AllocatorStateIndex,
} from '@shared/state/allocator-state';
import {
  emptyFragmentationSeries,
  fillFragmentationSeries,
  type FragmentationSeries,
} from '@shared/state/fragmentation-series';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';

/** After the next paint: a frame, then a task (a frame callback alone runs before painting). */
export function afterPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
  };
}

/** The index, or null until it is built (at once when it already was). */
export function useStateIndex(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
): AllocatorStateIndex | null {
  const [built, setBuilt] = useState<{ device: AnalyzedDevice; index: AllocatorStateIndex } | null>(
    null,
  );
  const cached = builtAllocatorStateIndex(device);
  useEffect(() => {
    if (builtAllocatorStateIndex(device) !== null) return;
    return afterPaint(() => setBuilt({ device, index: allocatorStateIndexOf(snapshot, device) }));
  }, [snapshot, device]);
  if (cached !== null) return cached;
  return built?.device === device ? built.index : null;
}

/**
 * The state at a moment. The index keeps only its last state, so each consumer keeps its own
 * (the moment's and the peak's are both on screen).
 */
export function useStateAt(
  index: AllocatorStateIndex | null,
  event: number,
): AllocatorState | null {
  return useMemo(() => (index === null ? null : index.stateAt(event)), [index, event]);
}

export interface SeriesProgress {
  series: FragmentationSeries | null;
  /** Moments done / all, while computing. */
  done: number;
  total: number;
}

/** Samples per call; calls go on until a slice of time is used, then yield to the page. */
const CHUNK = 4;
const SLICE_MS = 10;

/**
 * Fragmentation figures at `moments`, computed in small chunks between frames so the page stays
 * responsive; the previous series stays shown until the new one is complete.
 */
export function useFragmentationSeries(
  index: AllocatorStateIndex | null,
  moments: Int32Array | null,
  thresholdBytes: number,
): SeriesProgress {
  const [result, setResult] = useState<{
    key: Int32Array | null;
    series: FragmentationSeries | null;
    done: number;
    total: number;
  }>({ key: null, series: null, done: 0, total: 0 });

  useEffect(() => {
    if (index === null || moments === null) return;
    const series = emptyFragmentationSeries(moments, thresholdBytes);
    let offset = 0;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const step = (): void => {
      if (cancelled) return;
      const started = performance.now();
      do {
        const end = Math.min(moments.length, offset + CHUNK);
        fillFragmentationSeries(series, index, offset, end);
        offset = end;
      } while (offset < moments.length && performance.now() - started < SLICE_MS);
      if (offset < moments.length) {
        setResult((current) => ({ ...current, done: offset, total: moments.length }));
        timer = setTimeout(step, 0);
        return;
      }
      setResult({
        key: moments,
        series,
        done: moments.length,
        total: moments.length,
      });
    };
    timer = setTimeout(step, 0);
    return () => {
      cancelled = true;
      if (timer !== null) clearTimeout(timer);
    };
  }, [index, moments, thresholdBytes]);

  return { series: result.series, done: result.done, total: result.total };
}
