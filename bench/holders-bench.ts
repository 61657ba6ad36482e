// Who holds the memory (the "Who holds it" view, `allocscope top`, the search box): how long the
// groups and the flame graph of a moment take on a large trace, the first time (building the
// alive checkpoints and the stack labels) and then at random moments, and how long a search
// takes per keystroke (frames and stacks tested, allocations looked up, the bytes over time).

import { aliveCheckpointsOf } from '../src/shared/analyzed/alive-checkpoints';
import { defaultMoment } from '../src/shared/analyzed/moments';
import { aliveRowsAt } from '../src/shared/holders/alive-rows';
import { bandColoring } from '../src/shared/holders/band-coloring';
import { flameTree } from '../src/shared/holders/flame-tree';
import { groupRows } from '../src/shared/holders/group-by';
import { groupSeries } from '../src/shared/holders/group-series';
import { seriesMoments } from '../src/shared/holders/category-series';
import { compileSearch, matchedBytesCurve, matchingRows } from '../src/shared/holders/search';
import { loadAnalyzedSnapshot } from '../src/cli/load-analyzed-snapshot';
import { Prng } from '../generators/snapshot/prng';

export interface HoldersBenchRow {
  label: string;
  allocations: number;
  aliveAtMoment: number;
  /** The alive checkpoints (built after the first paint in the app, shared with the segments view). */
  checkpointsMs: number;
  /** The first moment: stack labels and paths computed on the way. */
  firstMs: number;
  momentP50Ms: number;
  momentP95Ms: number;
  searchP50Ms: number;
  searchMaxMs: number;
  /** The timeline coloured by category, by top user frame, by annotation span: built once each. */
  colorByMs: Record<'category' | 'frame' | 'annotation', number>;
}

const MOMENTS = 20;
/** What a person types, one keystroke at a time. */
const KEYSTROKES = [
  'm',
  'mo',
  'mod',
  'mode',
  'model',
  'model.',
  'model.py',
  'forward',
  'optim',
  'Backward',
];

export async function measureHolders(label: string, path: string): Promise<HoldersBenchRow> {
  const snapshot = await loadAnalyzedSnapshot(path);
  const device = [...snapshot.devices].sort((a, b) => b.traceLength - a.traceLength)[0]!;
  const momentWork = (moment: number): number => {
    const rows = aliveRowsAt(device, moment);
    const groups = groupRows(snapshot, device, rows, 'frame');
    flameTree(snapshot, device, rows);
    // The table's sparklines (as the app: 80 samples, the 200 largest groups).
    const keys = groups.slice(0, 200).map((group) => group.key);
    groupSeries(snapshot, device, 'frame', keys, seriesMoments(device.traceLength, 80, [moment]));
    return rows.length;
  };
  // Built once per device after the first paint for the allocator state (segments view) as well.
  let started = performance.now();
  aliveCheckpointsOf(device);
  const checkpointsMs = performance.now() - started;
  started = performance.now();
  const aliveAtMoment = momentWork(defaultMoment(device));
  const firstMs = performance.now() - started;
  const random = new Prng(3);
  const times: number[] = [];
  for (let i = 0; i < MOMENTS; i++) {
    const moment = random.int(0, Math.max(0, device.traceLength - 1));
    started = performance.now();
    momentWork(moment);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const searchTimes: number[] = [];
  for (const text of KEYSTROKES) {
    started = performance.now();
    const mask = matchingRows(snapshot, device, compileSearch({ text, regex: false }));
    matchedBytesCurve(device, mask);
    searchTimes.push(performance.now() - started);
  }
  searchTimes.sort((a, b) => a - b);
  const colorByMs = { category: 0, frame: 0, annotation: 0 };
  for (const colorBy of ['category', 'frame', 'annotation'] as const) {
    started = performance.now();
    bandColoring(snapshot, device, colorBy);
    colorByMs[colorBy] = performance.now() - started;
  }
  return {
    label,
    allocations: device.allocations.count,
    aliveAtMoment,
    checkpointsMs,
    firstMs,
    momentP50Ms: times[Math.floor(times.length * 0.5)]!,
    momentP95Ms: times[Math.floor(times.length * 0.95)]!,
    searchP50Ms: searchTimes[Math.floor(searchTimes.length * 0.5)]!,
    searchMaxMs: searchTimes[searchTimes.length - 1]!,
    colorByMs,
  };
}

export function formatHoldersTable(rows: readonly HoldersBenchRow[]): string {
  const lines = [
    'who holds it (groups, sparklines, flame graph of a moment; search per keystroke): one device, in-process',
    'input    allocations  alive   checkpoints  first     moment p50  moment p95  search p50  search max  targets',
  ];
  for (const row of rows) {
    const ok = row.firstMs <= 100 && row.momentP95Ms <= 100 && row.searchMaxMs <= 50;
    lines.push(
      [
        row.label.padEnd(8),
        String(row.allocations).padEnd(12),
        String(row.aliveAtMoment).padEnd(7),
        `${row.checkpointsMs.toFixed(0)} ms`.padEnd(12),
        `${row.firstMs.toFixed(0)} ms`.padEnd(9),
        `${row.momentP50Ms.toFixed(1)} ms`.padEnd(11),
        `${row.momentP95Ms.toFixed(1)} ms`.padEnd(11),
        `${row.searchP50Ms.toFixed(1)} ms`.padEnd(11),
        `${row.searchMaxMs.toFixed(1)} ms`.padEnd(11),
        `moment <= 100 ms, search <= 50 ms ${ok ? 'ok' : 'MISSED'}`,
      ].join(' '),
    );
  }
  lines.push('colour the timeline by (built once per device and choice):');
  for (const row of rows)
    lines.push(
      `${row.label.padEnd(8)} ${Object.entries(row.colorByMs)
        .map(([by, ms]) => `${by} ${ms.toFixed(0)} ms`)
        .join(', ')}`,
    );
  return lines.join('\n');
}
