// Pinned host memory (`host_segments` / `host_traces`, PyTorch 2.14+) is a pseudo-device analysed
// like a CUDA device: listed after them, named "host (pinned)", its figures those the generator
// built, the CUDA devices' figures untouched, and `--device host` selects it in the CLI.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { defaultDeviceIndex } from '../../src/shared/analyzed/moments';
import { deviceLabel } from '../../src/shared/format/words';
import { reportDocumentSchema } from '../../src/shared/report/report-document';
import { summaryDocumentSchema } from '../../src/shared/report/summary-report';
import { HOST_DEVICE } from '../../src/shared/snapshot/model';
import { analyzeBytes } from '../support/analyzed';
import { runCli } from '../support/cli';

const withHost = makeNewestSnapshot({ seed: 5, newestFields: false, unknownExtras: false });
const withoutHost = makeNewestSnapshot({
  seed: 5,
  newestFields: false,
  unknownExtras: false,
  hostMemory: false,
});
const hostBytes = dumpToBytes(withHost.value);

describe('pinned host memory', () => {
  it('is a device after the CUDA devices with the figures the allocator recorded', async () => {
    const snapshot = await analyzeBytes(hostBytes);
    expect(snapshot.devices.map((d) => d.device)).toEqual([0, 1, HOST_DEVICE]);
    const host = snapshot.devices[2]!;
    const expected = withHost.planted.host!;
    expect(host.traceLength).toBe(expected.traceEntries);
    expect(host.figures.reserved.finalBytes).toBe(expected.reservedBytes);
    expect(host.figures.active.finalBytes).toBe(expected.activeBytes);
    // Every block was allocated in the trace (each segment_alloc is in it): both curves start at 0.
    expect(host.figures.reserved.baselineBytes).toBe(0);
    expect(host.figures.active.baselineBytes).toBe(0);
    // The peak is the largest sum of live requests along the trace, computed here from the entries.
    let live = 0;
    let peak = 0;
    for (const entry of withHost.value.host_traces as { action: string; size: number }[]) {
      if (entry.action === 'alloc') live += entry.size;
      if (entry.action === 'free_completed') live -= entry.size;
      peak = Math.max(peak, live);
    }
    expect(host.figures.active.peakBytes).toBe(peak);
    expect(host.segmentHistory).toBeDefined();
    expect(deviceLabel(host.device)).toBe('host (pinned)');
    expect(deviceLabel(1)).toBe('cuda:1');
  });

  it('leaves the CUDA devices as they are, and the default device a CUDA one', async () => {
    const [ours, reference] = await Promise.all([
      analyzeBytes(hostBytes),
      analyzeBytes(dumpToBytes(withoutHost.value)),
    ]);
    expect(ours.devices.slice(0, 2).map((d) => d.figures)).toEqual(
      reference.devices.map((d) => d.figures),
    );
    expect(ours.warnings).toEqual(reference.warnings);
    expect(ours.devices[defaultDeviceIndex(ours.devices)]!.device).not.toBe(HOST_DEVICE);
  });

  it('is the default device when it is all there is', async () => {
    const value = { ...withHost.value, segments: [], device_traces: [] };
    const snapshot = await analyzeBytes(dumpToBytes(value));
    expect(snapshot.devices.map((d) => d.device)).toEqual([HOST_DEVICE]);
    expect(defaultDeviceIndex(snapshot.devices)).toBe(0);
  });

  it('is read from a host_traces shaped like device_traces (a list of lists) too', async () => {
    const value = { ...withHost.value, host_traces: [withHost.value.host_traces!] };
    const [nested, flat] = await Promise.all([
      analyzeBytes(dumpToBytes(value)),
      analyzeBytes(hostBytes),
    ]);
    expect(nested.devices[2]!.figures).toEqual(flat.devices[2]!.figures);
  });

  it('is selected with --device host in the CLI, and named in its text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'allocscope-host-'));
    const path = join(dir, 'pinned.pickle');
    writeFileSync(path, hostBytes);
    const run = runCli(['summary', path, '--device', 'host', '--json']);
    expect(run.stderr).toBe('');
    const document = JSON.parse(run.stdout) as { devices: { device: number }[] };
    expect(document.devices.map((d) => d.device)).toEqual([HOST_DEVICE]);
    // The documents stay valid with the host device in them (-1 is documented).
    expect(summaryDocumentSchema.safeParse(document).error).toBeUndefined();
    const report = runCli(['report', path, '--json', '-']);
    expect(report.status).toBe(0);
    expect(reportDocumentSchema.safeParse(JSON.parse(report.stdout)).error).toBeUndefined();
    const text = runCli(['summary', path, '--device', 'host']);
    expect(text.stdout).toContain('host (pinned): ');
    const without = join(dir, 'cuda-only.pickle');
    writeFileSync(without, dumpToBytes(withoutHost.value));
    const missing = runCli(['summary', without, '--device', 'host']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('pinned host memory (host_segments / host_traces) is not in');
  });
});
