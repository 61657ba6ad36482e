// Issue 8, class 9: no figure is ever negative or NaN. Snapshots whose content is inconsistent but
// possible (blocks that overlap or run past their segment, a pending free whose trace has no
// free_completed, a request larger than its block, frees larger than their allocs, ...) open, and
// every figure derived from them (the analysis, the view, the allocator state at every moment and
// its fragmentation figures and series, the OOM explanations, the summary and report documents)
// is a finite number >= 0. Each case is a patched copy of the small consistent snapshot of
// test/support/hostile-files.ts.
//
// Numbers that are not figures, and may be negative or NaN by definition, are named here:
//   - moments ('event', 'moments', 'peak_event_index', 'peakEventIndex', 'startEvent',
//     'fromEvent', 'freeRequestedEvent'): -1 means "before the first trace entry";
//   - ids ('stackId': -1 = no stack; 'line': -1 = not an exact integer in the file;
//     'allocationRow': -1 = a free block);
//   - 'blockSizeBytes' of the allocation table: NaN = not recorded (estimated at each moment);
//   - the view's 'timeUs' column: NaN where the file has no time_us;
//   - the analysis' 'activeSigns' / 'reservedSigns': the sign of each action's delta (+1 / -1);
//   - allocator_settings: the file's own raw values (not walked: documents do not carry it).

import { describe, expect, it } from 'vitest';
import { once } from '../support/analyzed';
import type { z } from 'zod';
import { analyzeSnapshot, type SnapshotAnalysis } from '@shared/analysis/snapshot-analysis';
import { explainOoms, explainPeak, verdictText } from '@shared/oom/oom-explainer';
import { buildReportDocument, reportDocumentSchema } from '@shared/report/report-document';
import { buildSummaryDocument, summaryDocumentSchema } from '@shared/report/summary-report';
import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '@shared/snapshot/model';
import { BlockKind, createAllocatorStateIndex } from '@shared/state/allocator-state';
import { fragmentationSeries, sampleMoments } from '@shared/state/fragmentation-series';
import { figuresByGroup, figuresOfState, smallHoleThreshold } from '@shared/state/memory-figures';
import { buildAnalyzedSnapshot, type AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { HOSTILE_FILES, tinySnapshot } from '../support/hostile-files';
import { tuple } from '../../generators/pickle/pickle-values';

const MiB = 1 << 20;
const BASE = 0x7f0000000000;
const frame = { filename: 'train.py', line: 62, name: 'forward' };

type Snapshot = Record<string, unknown>;
type Dict = Record<string, unknown>;

function segmentsOf(snapshot: Snapshot): Dict[] {
  return snapshot.segments as Dict[];
}
function blocksOf(snapshot: Snapshot, segment = 0): Dict[] {
  return segmentsOf(snapshot)[segment]!.blocks as Dict[];
}
function traceOf(snapshot: Snapshot): Dict[] {
  return (snapshot.device_traces as Dict[][])[0]!;
}
function entry(action: string, addr: number, size: number, timeUs: number, extra: Dict = {}): Dict {
  return { action, addr, size, stream: 0, time_us: timeUs, frames: [frame], ...extra };
}
function inactiveSegment(address: number, size: number): Dict {
  return {
    device: 0,
    address,
    total_size: size,
    allocated_size: 0,
    active_size: 0,
    requested_size: 0,
    stream: 0,
    segment_type: 'large',
    segment_pool_id: tuple(0, 0),
    is_expandable: false,
    frames: [],
    blocks: [{ address, size, requested_size: 0, state: 'inactive', frames: [] }],
  };
}

interface Case {
  name: string;
  bytes: () => Uint8Array;
  /** A warning the analysis must give (the decoder's own warnings are tested with the files). */
  warning?: RegExp;
}

function patched(name: string, patch: (snapshot: Snapshot) => void, warning?: RegExp): Case {
  return { name, bytes: () => tinySnapshot(patch), ...(warning === undefined ? {} : { warning }) };
}

const FREED_LIVE = /cuda:0: 1 block live at the end was freed in the trace/;

const CASES: Case[] = [
  patched('the consistent snapshot itself', () => {}),
  // The class-9 files of the hostile set that must open (with a warning).
  ...HOSTILE_FILES.filter((file) => file.defectClass === 9 && 'warning' in file.expect).map(
    (file) => ({
      name: `${file.name}: ${file.description}`,
      bytes: file.bytes,
      ...(file.name.startsWith('pending-free') ? { warning: FREED_LIVE } : {}),
    }),
  ),
  patched('a block whose requested_size is larger than its size', (s) => {
    blocksOf(s)[0]!.requested_size = 3 * MiB;
  }),
  patched('an inactive block with requested bytes', (s) => {
    blocksOf(s)[1]!.requested_size = 3 * MiB;
  }),
  patched(
    'a live allocation whose alloc asked for more than its recorded block',
    (s) => {
      traceOf(s)[1]!.size = 3 * MiB;
    },
    /the active curve would go 2\.0 MiB below zero/,
  ),
  patched('an allocation larger than its segment (estimated block past the end)', (s) => {
    traceOf(s)[2]!.size = 5 * MiB;
    traceOf(s)[3]!.size = 5 * MiB;
    traceOf(s)[4]!.size = 5 * MiB;
  }),
  patched('a segment whose blocks do not cover it', (s) => {
    segmentsOf(s)[0]!.total_size = 4 * MiB;
    traceOf(s)[0]!.size = 4 * MiB;
  }),
  patched('a segment smaller than its first block', (s) => {
    segmentsOf(s)[0]!.total_size = MiB / 2;
    traceOf(s)[0]!.size = MiB / 2;
  }),
  patched('a segment with only its live block', (s) => {
    blocksOf(s).pop();
  }),
  patched('two blocks at the same address', (s) => {
    blocksOf(s)[1]!.address = BASE;
  }),
  patched('a block of size 0 and an allocated block of size 0', (s) => {
    blocksOf(s)[1]!.size = 0;
    blocksOf(s).push({
      address: BASE + MiB,
      size: 0,
      requested_size: 0,
      state: 'active_allocated',
      frames: [frame],
    });
  }),
  patched('a block below its segment', (s) => {
    blocksOf(s)[0]!.address = BASE - MiB;
  }),
  patched(
    'a trace with only frees',
    (s) => {
      s.device_traces = [
        [
          entry('free_requested', BASE + MiB, 500_000, 1_003),
          entry('free_completed', BASE + MiB, 500_000, 1_004),
          entry('free_requested', BASE, 1_000_000, 1_005),
          entry('free_completed', BASE, 1_000_000, 1_006),
        ],
      ];
    },
    FREED_LIVE,
  ),
  patched(
    'a trace with only free_requested entries (skip_actions dropped the rest)',
    (s) => {
      s.device_traces = [
        [
          entry('free_requested', BASE + MiB, 500_000, 1_003),
          entry('free_requested', BASE, 1_000_000, 1_005),
        ],
      ];
    },
    FREED_LIVE,
  ),
  patched(
    'a free larger than its alloc',
    (s) => {
      traceOf(s)[3]!.size = 5 * MiB;
      traceOf(s)[4]!.size = 5 * MiB;
    },
    /cuda:0: 1 free of the trace names another size than its alloc/,
  ),
  patched(
    'a segment_alloc larger than the segment',
    (s) => {
      traceOf(s)[0]!.size = 64 * MiB;
    },
    /the reserved curve would go 62\.0 MiB below zero/,
  ),
  patched('a segment_free of a segment that was never reserved', (s) => {
    traceOf(s).push(entry('segment_free', BASE + 64 * MiB, 64 * MiB, 1_005));
  }),
  patched(
    'two allocs at one address without a free',
    (s) => {
      traceOf(s).push(entry('alloc', BASE, 2 * MiB, 1_005));
    },
    /1 alloc reuses an address that was never freed/,
  ),
  patched('an allocation outside every segment', (s) => {
    traceOf(s).push(entry('alloc', BASE + 64 * MiB, 4096, 1_005));
  }),
  patched(
    'a free at the address of the live block, with no alloc',
    (s) => {
      traceOf(s).push(entry('free_requested', BASE, 1_000_000, 1_005));
      traceOf(s).push(entry('free_completed', BASE, 1_000_000, 1_006));
    },
    FREED_LIVE,
  ),
  patched('overlapping segments', (s) => {
    segmentsOf(s).push(inactiveSegment(BASE + MiB, 2 * MiB));
  }),
  patched('a segment inside another one', (s) => {
    segmentsOf(s).push(inactiveSegment(BASE + MiB / 2, MiB / 4));
  }),
  patched('no segments at all, allocations in the trace', (s) => {
    s.segments = [];
  }),
  patched('an oom larger than everything, and one of 0 bytes', (s) => {
    traceOf(s).push({ action: 'oom', size: 2 ** 40, device_free: 0, stream: 0, time_us: 1_005 });
    traceOf(s).push({ action: 'oom', size: 0, device_free: 2 ** 40, stream: 0, time_us: 1_006 });
    traceOf(s).push({ action: 'oom', size: 3 * MiB, stream: 7, time_us: 1_007 });
  }),
  patched('an oom while the live blocks overlap', (s) => {
    blocksOf(s)[1]!.address = BASE + MiB / 2;
    traceOf(s).push({ action: 'oom', size: 3 * MiB, device_free: 0, stream: 0, time_us: 1_005 });
  }),
  patched('a pending block past the end of a segment that blocks do not tile', (s) => {
    blocksOf(s)[0]!.state = 'active_pending_free';
    blocksOf(s)[0]!.size = 4 * MiB;
    blocksOf(s).pop();
  }),
  patched('an expandable segment whose map and unmap entries do not fit', (s) => {
    const segment = segmentsOf(s)[0]!;
    segment.is_expandable = true;
    traceOf(s).push(entry('segment_unmap', BASE + MiB, 8 * MiB, 1_005));
    traceOf(s).push(entry('segment_map', BASE + 32 * MiB, 2 * MiB, 1_006));
    traceOf(s).push(entry('segment_map', BASE, 2 * MiB, 1_007));
  }),
  patched('a device whose trace is empty, and a device with a trace but no segments', (s) => {
    s.device_traces = [[], [entry('alloc', BASE + 64 * MiB, 4096, 1_000, { device: 1 })]];
  }),
  patched('sizes at the 1 PiB limit of a byte count', (s) => {
    // Nothing live at the end; +a +a +2 -a -a -2 with the largest size the decoder accepts
    // (larger ones are refused: sums of sizes near 2^53 would no longer be exact).
    blocksOf(s)[0]!.state = 'inactive';
    blocksOf(s)[0]!.requested_size = 0;
    const trace = traceOf(s);
    trace.splice(1, 1);
    const a = 2 ** 50;
    trace.push(entry('alloc', BASE + 64 * MiB, a, 1_005));
    trace.push(entry('alloc', BASE + 256 * MiB, a, 1_006));
    trace.push(entry('alloc', BASE + 128 * MiB, 2, 1_007));
    for (const [at, size] of [
      [BASE + 64 * MiB, a],
      [BASE + 256 * MiB, a],
      [BASE + 128 * MiB, 2],
    ] as const) {
      trace.push(entry('free_requested', at, size, 1_008));
      trace.push(entry('free_completed', at, size, 1_009));
    }
  }),
  patched('time_us missing on some entries', (s) => {
    delete traceOf(s)[2]!.time_us;
  }),
];

/** Keys whose numbers are moments: -1 = before the first trace entry. */
const MOMENT_KEYS = new Set([
  'event',
  'moments',
  'peak_event_index',
  'peakEventIndex',
  'startEvent',
  'fromEvent',
  'freeRequestedEvent',
]);
/** Keys whose numbers are ids where -1 means "none". */
const ID_KEYS = new Set(['stackId', 'line', 'allocationRow']);
/** Keys whose NaN means "not known" (never a figure computed from others). */
const NAN_MEANS_UNKNOWN = new Set(['blockSizeBytes', 'timeUs']);
/** Not walked: signs of deltas by definition, and the file's own raw settings. */
const NOT_FIGURES = new Set(['activeSigns', 'reservedSigns', 'allocatorSettings']);

/** Every number under `value` that breaks the rules above, as "path = value". */
function badNumbers(value: unknown, path = '$', key = '', bad: string[] = []): string[] {
  if (typeof value === 'number') {
    if (NAN_MEANS_UNKNOWN.has(key) && Number.isNaN(value)) return bad;
    const lowest = MOMENT_KEYS.has(key) || ID_KEYS.has(key) ? -1 : 0;
    if (!Number.isFinite(value) || value < lowest) bad.push(`${path} = ${value}`);
    return bad;
  }
  if (value === null || typeof value !== 'object' || NOT_FIGURES.has(key)) return bad;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const items = value as unknown as ArrayLike<number>;
    for (let i = 0; i < items.length; i++) badNumbers(items[i], `${path}[${i}]`, key, bad);
    return bad;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => badNumbers(item, `${path}[${i}]`, key, bad));
    return bad;
  }
  if (value instanceof Map) return bad;
  for (const [childKey, child] of Object.entries(value)) {
    if (NOT_FIGURES.has(childKey)) continue;
    badNumbers(child, `${path}.${childKey}`, childKey, bad);
  }
  return bad;
}

/** Texts meant for people must not show a negative or NaN figure either. */
function badText(text: string): boolean {
  return /NaN|Infinity|-\d|−\d/.test(text);
}

/**
 * What the document's schema finds wrong, except integers past 2^53: sums of sizes that are each
 * exact can pass it (the case of sizes near 2^53), and zod's int() refuses those as unsafe.
 */
function schemaIssues(schema: z.ZodType, document: unknown): string[] {
  const issues = schema.safeParse(document).error?.issues ?? [];
  return issues
    .filter((issue) => !(issue.code === 'too_big' && issue.maximum === Number.MAX_SAFE_INTEGER))
    .map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

/** Every case opens: these files are inconsistent but possible, so they open with a warning. */
async function decodeCase(bytes: Uint8Array): Promise<SnapshotModel> {
  return decodeSnapshot(once(bytes));
}

/** Everything derived from the model, each under a name for the failure message. */
function everyFigure(model: SnapshotModel): {
  named: Record<string, unknown>;
  texts: string[];
  warnings: string[];
} {
  const analysis: SnapshotAnalysis = analyzeSnapshot(model);
  const named: Record<string, unknown> = {};
  const texts: string[] = [];
  named.analysis = analysis.devices.map((d) => ({
    device: d.device,
    finalState: d.finalState,
    active: d.active,
    reserved: d.reserved,
    ooms: d.ooms,
    actionCounts: d.actionCounts,
  }));
  const summary = buildSummaryDocument(model, analysis, {
    fileName: 'case.pickle',
    fileBytes: 1,
    top: 10,
  });
  expect(schemaIssues(summaryDocumentSchema, summary)).toEqual([]);
  named.summary = summary;

  const snapshot: AnalyzedSnapshot = buildAnalyzedSnapshot(model, {
    fileName: 'case.pickle',
    fileBytes: 1,
  });
  named.view = snapshot.devices;

  snapshot.devices.forEach((device, deviceIndex) => {
    const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
    const threshold = smallHoleThreshold(device);
    named[`device ${device.device} threshold`] = threshold;
    for (let event = -1; event < device.traceLength; event++) {
      const state = index.stateAt(event);
      const at = `device ${device.device} state after ${event}`;
      named[at] = state;
      named[`${at} totals`] = figuresOfState(state, threshold);
      named[`${at} groups`] = figuresByGroup(state, threshold);
      // The blocks tile every segment: no hole, no overlap, nothing past its end.
      for (const segment of state.segments) {
        let cursor = segment.address;
        for (let b = segment.firstBlock; b < segment.endBlock; b++) {
          expect(state.blocks.address[b], `${at}: block ${b}`).toBe(cursor);
          cursor += state.blocks.sizeBytes[b]!;
          if (state.blocks.kind[b] === BlockKind.free) {
            expect(state.blocks.requestedBytes[b], `${at}: free block ${b}`).toBe(0);
          }
        }
        expect(cursor, `${at}: end of the segment at ${segment.address}`).toBe(
          segment.address + segment.sizeBytes,
        );
      }
    }
    const moments = sampleMoments(device.traceLength, 50, []);
    named[`device ${device.device} series`] = fragmentationSeries(index, moments, threshold);
    const explanations = [
      ...explainOoms(snapshot, deviceIndex, index),
      explainPeak(snapshot, deviceIndex, index),
    ];
    named[`device ${device.device} explanations`] = explanations;
    for (const explanation of explanations) {
      texts.push(explanation.verdictText);
      // Every verdict on the same figures, so the sentences of all four verdicts are checked.
      for (const verdict of [
        'fragmentation',
        'out-of-memory',
        'fits-in-cache',
        'process-limit',
        'what-if',
      ] as const)
        texts.push(verdictText({ ...explanation, verdict }));
    }
    const report = buildReportDocument(snapshot, {
      devices: [deviceIndex],
      moment: { deviceIndex, event: Math.floor(device.traceLength / 2) },
      seriesSamples: 20,
    });
    expect(schemaIssues(reportDocumentSchema, JSON.parse(JSON.stringify(report)))).toEqual([]);
    named[`device ${device.device} report`] = report;
  });
  return { named, texts, warnings: [...snapshot.warnings] };
}

describe('no figure is ever negative or NaN (issue 8, class 9)', () => {
  it.for(CASES.map((c) => [c.name, c] as const))('%s', async ([, testCase]) => {
    const model = await decodeCase(testCase.bytes());
    const { named, texts, warnings } = everyFigure(model);
    if (testCase.warning !== undefined) expect(warnings.join('\n')).toMatch(testCase.warning);
    const bad: string[] = [];
    for (const [name, value] of Object.entries(named)) badNumbers(value, name, name, bad);
    expect(bad).toEqual([]);
    expect(texts.filter(badText)).toEqual([]);
  });
});

describe('allocations alive at one address (inconsistent files)', () => {
  it('the one allocated last holds the block, whole; the other lies outside the segments', async () => {
    const file = HOSTILE_FILES.find((f) => f.name === 'pending-free-without-completion.pickle')!;
    const model = await decodeCase(file.bytes());
    expect(model).not.toBeNull();
    const snapshot = buildAnalyzedSnapshot(model!, { fileName: file.name, fileBytes: 1 });
    const device = snapshot.devices[0]!;
    const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
    // The trace: segment_alloc, alloc BASE (1), alloc BASE + 1 MiB (2), free_requested of
    // BASE + 1 MiB (3), free_requested of BASE (4), no free_completed: the frees end allocations,
    // and the block at BASE, pending at the end, is also an allocation from before the trace.
    for (const event of [1, 2, 3]) {
      const state = index.stateAt(event);
      const b = Array.from(state.blocks.address).indexOf(BASE);
      const row = state.blocks.allocationRow[b]!;
      expect(device.allocations.startEvent[row], `after ${event}`).toBe(1);
      expect(state.blocks.kind[b]).toBe(BlockKind.allocated);
      expect(state.blocks.requestedBytes[b]).toBe(1_000_000);
      expect(state.blocks.sizeBytes[b]).toBeGreaterThanOrEqual(1_000_000);
      expect(state.outsideSegments.map((r) => device.allocations.startEvent[r])).toEqual([-1]);
      expect(state.clippedBlocks).toBe(0);
    }
    const last = index.stateAt(4);
    expect(last.blocks.kind[0]).toBe(BlockKind.pendingFree);
    expect(last.blocks.sizeBytes[0]).toBe(MiB);
    expect(last.outsideSegments).toEqual([]);
  });
});
