// Scrubbing the allocator state: how long moving the moment takes on a large trace (building the
// index once, then the state after random events), and the sampled fragmentation series the
// fragmentation panel and the report compute. In-process, on the view the app and CLI build.

import { createAllocatorStateIndex } from '../src/shared/state/allocator-state';
import { fragmentationSeries, sampleMoments } from '../src/shared/state/fragmentation-series';
import { smallHoleThreshold } from '../src/shared/state/memory-figures';
import { loadAnalyzedSnapshot } from '../src/cli/load-analyzed-snapshot';
import { Prng } from '../generators/snapshot/prng';

export interface StateBenchRow {
  label: string;
  events: number;
  allocations: number;
  indexMs: number;
  stateP50Ms: number;
  stateP95Ms: number;
  liveBlocksMax: number;
  seriesMoments: number;
  seriesMs: number;
}

const STATE_SAMPLES = 200;
const SERIES_MOMENTS = 600;

export async function measureAllocatorState(label: string, path: string): Promise<StateBenchRow> {
  const snapshot = await loadAnalyzedSnapshot(path);
  // The device with the longest trace.
  const device = [...snapshot.devices].sort((a, b) => b.traceLength - a.traceLength)[0]!;
  let started = performance.now();
  const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
  const indexMs = performance.now() - started;
  const random = new Prng(7);
  const times: number[] = [];
  let liveBlocksMax = 0;
  for (let i = 0; i < STATE_SAMPLES; i++) {
    const event = Math.floor(random.next() * device.traceLength);
    started = performance.now();
    const state = index.stateAt(event);
    times.push(performance.now() - started);
    liveBlocksMax = Math.max(liveBlocksMax, state.blocks.count);
  }
  times.sort((a, b) => a - b);
  const moments = sampleMoments(device.traceLength, SERIES_MOMENTS, []);
  started = performance.now();
  fragmentationSeries(index, moments, smallHoleThreshold(device));
  const seriesMs = performance.now() - started;
  return {
    label,
    events: device.traceLength,
    allocations: device.allocations.count,
    indexMs,
    stateP50Ms: times[Math.floor(times.length * 0.5)]!,
    stateP95Ms: times[Math.floor(times.length * 0.95)]!,
    liveBlocksMax,
    seriesMoments: moments.length,
    seriesMs,
  };
}

export function formatStateTable(rows: readonly StateBenchRow[]): string {
  const lines = [
    'allocator state (segments view, fragmentation): one device, in-process',
    'input    events      allocations  index     state p50  state p95  blocks max  series (moments)',
  ];
  for (const row of rows) {
    lines.push(
      [
        row.label.padEnd(8),
        String(row.events).padEnd(11),
        String(row.allocations).padEnd(12),
        `${row.indexMs.toFixed(0)} ms`.padEnd(9),
        `${row.stateP50Ms.toFixed(1)} ms`.padEnd(10),
        `${row.stateP95Ms.toFixed(1)} ms`.padEnd(10),
        String(row.liveBlocksMax).padEnd(11),
        `${row.seriesMs.toFixed(0)} ms (${row.seriesMoments})`,
      ].join(' '),
    );
  }
  return lines.join('\n');
}
