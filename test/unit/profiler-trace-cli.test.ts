// Profiler traces through the built `allocscope` command, as a user runs it: summary, summary
// --json, top and steps on a recorded trace; `segments` says a trace records none; bad traces
// (truncated, of the wrong shape, recorded without profile_memory=True, past the JSON bounds)
// exit 2 with one line naming the file and the problem (docs/bad-input.md).

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { reportDocumentSchema } from '../../src/shared/report/report-document';
import type { RanksDocument } from '../../src/shared/report/ranks-document';
import type { StepsDocument } from '../../src/shared/report/steps-document';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { memoryEvent, opSpan, traceText, type TraceEvent } from '../support/profiler-trace';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/profiler');
const LEAK = join(FIXTURES, 'leak.pt.trace.json.gz');
const PLANTED = 1_048_576;
const dir = mkdtempSync(join(tmpdir(), 'allocscope-trace-'));

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('allocscope on a profiler trace', () => {
  it('summary: the trace, its cpu device, what its figures compare with', () => {
    const run = runCli(['summary', LEAK, '--bytes']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^leak\.pt\.trace\.json\.gz {2}.* {2}PyTorch profiler trace$/);
    expect(run.stdout).toContain(
      'cpu: 206 trace entries (memory events); a PyTorch profiler trace does not record segments',
    );
    expect(run.stdout).toMatch(/active +6\.0 MiB \(6,329,896 B\)/);
    expect(run.stdout).toMatch(
      /1\.0 MiB \(1,048,576 B\) +0x[0-9a-f]+ +event \d+ +record-profiler-traces\.py:\d+ leak_step/,
    );
  });

  it('summary --json: source profiler_trace, device -2, figures from Total Allocated', () => {
    const run = runCli(['summary', LEAK, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as {
      source?: string;
      pickle_protocol: number | null;
      devices: {
        device: number;
        segments: number;
        active_bytes: { final: number; peak: number; baseline: number };
        allocated_bytes: { final: number };
        largest_allocations_at_peak: { bytes: number; top_frame: string }[];
      }[];
    };
    const recorded = memoryTotals(LEAK);
    expect(document.source).toBe('profiler_trace');
    expect(document.pickle_protocol).toBeNull();
    expect(document.devices.map((device) => device.device)).toEqual([-2]);
    const [cpu] = document.devices;
    expect(cpu!.segments).toBe(0);
    expect(cpu!.active_bytes).toEqual({
      final: recorded.at(-1),
      peak: Math.max(...recorded),
      baseline: 0,
      peak_event_index: expect.any(Number) as number,
    });
    expect(cpu!.allocated_bytes.final).toBe(recorded.at(-1));
    expect(cpu!.largest_allocations_at_peak.slice(0, 6).map((a) => a.bytes)).toEqual(
      new Array(6).fill(PLANTED),
    );
  });

  it('--device cpu picks it; --device 0 names the devices there are', () => {
    expect(runCli(['summary', LEAK, '--device', 'cpu']).status).toBe(0);
    const run = runCli(['summary', LEAK, '--device', '0']);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      'allocscope: leak.pt.trace.json.gz: device 0 is not in leak.pt.trace.json.gz (devices: cpu)',
    );
  });

  it('top: by top user frame, the planted leak first', () => {
    const run = runCli(['top', LEAK, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as {
      device: number;
      device_label: string;
      groups: { key: string; bytes: number; allocations: number }[];
    };
    expect(document.device).toBe(-2);
    expect(document.device_label).toBe('cpu');
    expect(document.groups[0]).toMatchObject({ bytes: 6 * PLANTED, allocations: 6 });
    expect(document.groups[0]!.key).toMatch(/^record-profiler-traces\.py:\d+ leak_step$/);
    const text = runCli(['top', LEAK, '--by', 'stack']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(
      /record-profiler-traces\.py:\d+ leak_run > record-profiler-traces\.py:\d+ leak_step/,
    );
  });

  it('steps: 6 ProfilerStep#N, growing by the planted bytes per step, at leak_step', () => {
    const run = runCli(['steps', LEAK]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('cpu: 6 steps from the ProfilerStep#N annotations');
    // A CPU trace records no reserved bytes: no column of 0 B for them.
    expect(run.stdout).toMatch(/\nstep +events +peak active +active at end +change\n/);
    expect(run.stdout).toMatch(
      /Active memory grows 1\.0 MiB per step over 6 steps; 1\.0 MiB of it is allocated at record-profiler-traces\.py:\d+ leak_step/,
    );
    const clean = runCli(['steps', join(FIXTURES, 'clean.pt.trace.json.gz')]);
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain('No growth across 6 steps');
  });

  it('report: no allocator figures, the sentence instead; the live allocations by stack', () => {
    const run = runCli(['report', LEAK]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('  a PyTorch profiler trace does not record segments');
    expect(run.stdout).not.toContain('cached free');
    expect(run.stdout).toMatch(/6\.0 MiB +6 allocations +record-profiler-traces\.py:\d+ leak_step/);
    // The document: the allocator's figures null and why, no reserved figure of 0 B.
    const json = runCli(['report', LEAK, '--json']);
    expect(json.status).toBe(0);
    const document = reportDocumentSchema.parse(JSON.parse(json.stdout));
    expect(document.devices).toHaveLength(1);
    const [device] = document.devices;
    expect(device!.atPeak).toBeNull();
    expect(device!.fragmentationSeries).toBeNull();
    expect(device!.whatIf).toBeNull();
    expect(device!.allocatorNotRecorded).toMatch(
      /^a PyTorch profiler trace does not record segments/,
    );
    // The live allocations at the peak instead of a what-if that needs the allocator.
    expect(device!.holdersAtPeak![0]).toMatchObject({ bytes: 6 * 1_048_576, count: 6 });
    expect(device!.holdersAtPeak![0]!.topFrame).toMatch(/leak_step$/);
    expect(document.summary.devices[0]!.reserved_bytes).toBeNull();
    expect(document.summary.devices[0]!.active_bytes.peak).toBe(Math.max(...memoryTotals(LEAK)));
  });

  it('ranks: reserved not recorded for CPU traces (null, never 0 B); a snapshot keeps its own', () => {
    const clean = join(FIXTURES, 'clean.pt.trace.json.gz');
    const snapshot = resolve(import.meta.dirname, '../fixtures/cuda-h200/leak.pickle');
    const run = runCli(['ranks', clean, LEAK, snapshot, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as RanksDocument;
    const byFile = new Map(document.ranks.map((entry) => [entry.file, entry]));
    for (const trace of [clean, LEAK]) {
      const entry = byFile.get(basename(trace))!;
      // PyTorch wrote Total Reserved 0 at every event: not recorded, not 0.
      expect(new Set(memoryArgs(trace, 'Total Reserved'))).toEqual(new Set([0]));
      expect(entry.peak_reserved_bytes).toBeNull();
      // No segments either: nothing cached, no hole, measured as 0.
      expect(entry.cached_free_at_peak_bytes).toBeNull();
      expect(entry.largest_free_at_peak_bytes).toBeNull();
      expect(entry.free_blocks_at_peak).toBeNull();
      expect(entry.peak_active_bytes).toBe(Math.max(...memoryTotals(trace)));
    }
    const summary = JSON.parse(runCli(['summary', snapshot, '--json']).stdout) as {
      devices: { reserved_bytes: { peak: number } | null }[];
    };
    const snapshotEntry = byFile.get('leak.pickle')!;
    expect(snapshotEntry.peak_reserved_bytes).toBe(summary.devices[0]!.reserved_bytes!.peak);
    expect(snapshotEntry.peak_reserved_bytes).toBeGreaterThan(0);
    expect(snapshotEntry.cached_free_at_peak_bytes).not.toBeNull();
    expect(snapshotEntry.free_blocks_at_peak).not.toBeNull();
    // The text: "not recorded" in the traces' rows, the snapshot's bytes in its own.
    const text = runCli(['ranks', clean, LEAK, snapshot]);
    expect(text.status).toBe(0);
    const rows = text.stdout.split('\n');
    for (const trace of [clean, LEAK])
      expect(rows.find((row) => row.endsWith(basename(trace)))).toMatch(
        /^ +\d+ +[\d.]+ [KMG]?i?B +not recorded +not recorded +not recorded +/,
      );
    expect(rows.find((row) => row.endsWith(' leak.pickle'))).toMatch(
      /^ +\d+ +[\d.]+ [KMG]?i?B +[\d.]+ [KMG]?i?B +/,
    );
  });

  it('steps --json: end_reserved_bytes null for a CPU trace, a snapshot keeps its own', () => {
    const run = runCli(['steps', LEAK, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as StepsDocument;
    expect(document.steps).toHaveLength(6);
    for (const step of document.steps) expect(step.end_reserved_bytes).toBeNull();
    const snapshot = resolve(import.meta.dirname, '../fixtures/cuda-h200/steps.pickle.gz');
    const cuda = JSON.parse(runCli(['steps', snapshot, '--json']).stdout) as StepsDocument;
    expect(cuda.steps.length).toBeGreaterThan(2);
    for (const step of cuda.steps) expect(step.end_reserved_bytes).toBeGreaterThan(0);
  });

  it('diff: two traces, and a trace beside a snapshot; no reserved delta from a CPU trace', () => {
    const run = runCli(['diff', join(FIXTURES, 'clean.pt.trace.json.gz'), LEAK, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as {
      a: { peak_active_bytes: number; peak_reserved_bytes: number | null };
      b: { peak_active_bytes: number; peak_reserved_bytes: number | null };
      delta: { peak_reserved_bytes: number | null };
      groups: { key: string; change: string; b_bytes: number }[];
    };
    expect(document.a.peak_active_bytes).toBe(
      Math.max(...memoryTotals(join(FIXTURES, 'clean.pt.trace.json.gz'))),
    );
    expect(document.b.peak_active_bytes).toBe(Math.max(...memoryTotals(LEAK)));
    expect([document.a.peak_reserved_bytes, document.delta.peak_reserved_bytes]).toEqual([
      null,
      null,
    ]);
    // What grew is the leak: six kept tensors of 1,048,576 B at leak_step, only in B.
    expect(document.groups[0]).toMatchObject({ change: 'appeared', b_bytes: 6 * 1_048_576 });
    expect(document.groups[0]!.key).toMatch(/leak_step$/);
    const text = runCli(['diff', LEAK, 'resources/demo-snapshot.pickle']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(
      /^A: leak\.pt\.trace\.json\.gz cpu: peak active 6\.0 MiB, reserved not recorded/,
    );
    expect(text.stdout).toMatch(
      /\nB: demo-snapshot\.pickle cuda:0: peak active [\d.]+ GiB, peak reserved/,
    );
    expect(text.stdout).toMatch(/\nB − A: peak active \+[\d.]+ GiB\n/);
  });

  it('segments: a profiler trace records none, said as such (exit 2)', () => {
    const run = runCli(['segments', LEAK]);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^allocscope: leak\.pt\.trace\.json\.gz: a PyTorch profiler trace does not record segments/,
    );
  });
});

/** Total Allocated of each [memory] event of a gzipped trace, in time order. */
function memoryTotals(path: string): number[] {
  return memoryArgs(path, 'Total Allocated');
}

/** One argument of every [memory] event, in time order, read straight from the trace. */
function memoryArgs(path: string, name: string): number[] {
  const trace = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as {
    traceEvents: TraceEvent[];
  };
  return trace.traceEvents
    .filter((event) => event['name'] === '[memory]')
    .sort((a, b) => (a['ts'] as number) - (b['ts'] as number))
    .map((event) => (event['args'] as Record<string, number>)[name]!);
}

const leakText = gunzipSync(readFileSync(LEAK)).toString('utf8');
const good = memoryEvent(1, 0x40, 64, { total: 64 });
const withArgs = (args: Record<string, unknown>): TraceEvent => ({
  ...good,
  args: { ...(good['args'] as object), ...args },
});

const badTraces: [string, string, string | RegExp][] = [
  [
    'truncated',
    file('cut.pt.trace.json', leakText.slice(0, leakText.length >> 1)),
    /^allocscope: cut\.pt\.trace\.json: not valid JSON: the file ends (inside a string|before the JSON is complete)/,
  ],
  [
    'traceEvents not a list',
    file('not-list.json', '{"schemaVersion": 1, "traceEvents": 5}'),
    'allocscope: not-list.json: not a PyTorch profiler trace of a known shape: traceEvents: expected a list of trace events, found 5 (at byte 36)',
  ],
  [
    'an event that is not a dict',
    file('not-dict.json', traceText([good, 'x' as unknown as TraceEvent])),
    /^allocscope: not-dict\.json: not a PyTorch profiler trace of a known shape: traceEvents\[1\]: expected a trace event \(a dict\), found a string \('x'\) \(at byte \d+\)$/,
  ],
  [
    'Bytes that is a string',
    file('bytes.json', traceText([withArgs({ Bytes: '64' })])),
    /^allocscope: bytes\.json: not a PyTorch profiler trace of a known shape: traceEvents\[0\]\.args\.Bytes: expected a byte count \(negative for a free\), found a string \('64'\) \(at byte \d+\)$/,
  ],
  [
    'a memory event without Addr',
    file('no-addr.json', traceText([withArgs({ Addr: undefined })])),
    /^allocscope: no-addr\.json: .*traceEvents\[0\]\.args\.Addr: a \[memory\] event without it \(expected an address\)/,
  ],
  [
    'a Device Type that is no device type',
    file('type.json', traceText([withArgs({ 'Device Type': 1.5 })])),
    /traceEvents\[0\]\.args\['Device Type'\]: 1\.5 is not a device type/,
  ],
  [
    'no memory events, no profile_memory',
    file('no-memory.json', traceText([opSpan('aten::mm', 0, 10)], { profile_memory: 0 })),
    'allocscope: no-memory.json: a PyTorch profiler trace without [memory] events: it was recorded without profile_memory=True (torch.profiler.profile(..., profile_memory=True) records each allocation and free)',
  ],
  [
    'profile_memory on but nothing allocated',
    file('nothing.json', traceText([opSpan('aten::mm', 0, 10)])),
    'allocscope: nothing.json: a PyTorch profiler trace without [memory] events: profile_memory=True was on, but no tensor memory was allocated or freed while it recorded',
  ],
  [
    'nested past the JSON bounds',
    file(
      'deep.json',
      `{"traceEvents": [{"name": "x", "args": {"a": ${'['.repeat(5000)}${']'.repeat(5000)}}}]}`,
    ),
    /^allocscope: deep\.json: .*the JSON is nested more than 4,096 levels deep; a PyTorch profiler trace is nested a few levels/,
  ],
  [
    'more lists than its bytes justify',
    file(
      'bomb.json',
      `{"traceEvents": [{"name": "x", "args": {"Input Dims": [${new Array(300_000).fill('[]').join(',')}]}}]}`,
    ),
    /^allocscope: bomb\.json: .*more lists and dicts than a PyTorch profiler trace holds/,
  ],
];

describe('bad profiler traces: exit 2, one line naming the file and the problem', () => {
  it.each(badTraces)('%s', (_name, path, expected) => {
    const run = runCli(['summary', path]);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    if (typeof expected === 'string') expect(lines[0]).toBe(expected);
    else expect(lines[0]).toMatch(expected);
  });
});
