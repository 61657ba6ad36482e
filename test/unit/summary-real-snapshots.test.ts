// Every figure of the summary, on the 12 real snapshots, equals the independent Python reference
// (test/reference/summary_reference.py), largest allocations and their stacks included.

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summaryDocumentSchema } from '@shared/report/summary-report';
import { realSnapshotPath, realSnapshotPaths } from '../support/real-snapshots';
import { referenceSummary, summarizeFile, withoutWarnings } from '../support/summarize';

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  it('matches the Python reference figure for figure (top 100 allocations)', async () => {
    const ours = await summarizeFile(path, 100);
    expect(summaryDocumentSchema.safeParse(ours).success).toBe(true);
    expect(withoutWarnings(ours)).toEqual(withoutWarnings(referenceSummary(path, 100)));
  });

  it('lists exactly the live allocations at the peak: their bytes add up to the active peak', async () => {
    const summary = await summarizeFile(path, 1_000_000);
    for (const device of summary.devices) {
      const total = device.largest_allocations_at_peak.reduce(
        (sum, allocation) => sum + allocation.bytes,
        0,
      );
      // Raised (clamped) curves count bytes the file does not account for; otherwise exact.
      if (
        summary.warnings.some((warning) =>
          warning.includes(`cuda:${device.device}: the trace does not match`),
        )
      ) {
        expect(total).toBeLessThanOrEqual(device.active_bytes.peak);
      } else {
        expect(total).toBe(device.active_bytes.peak);
      }
    }
  });
});

describe('warnings on real snapshots', () => {
  it('clamps the inconsistent drisspg file and says so', async () => {
    const summary = await summarizeFile(realSnapshotPath('drisspg'));
    expect(summary.warnings.join('\n')).toMatch(/cuda:0: the trace does not match the final state/);
    for (const device of summary.devices) {
      expect(device.active_bytes.baseline).toBeGreaterThanOrEqual(0);
      expect(device.reserved_bytes!.baseline).toBeGreaterThanOrEqual(0);
    }
  });

  it('notes that a wrapped ring buffer starts mid-run', async () => {
    const summary = await summarizeFile(realSnapshotPath('cherryni2022'));
    expect(summary.devices[0]!.trace_entries).toBe(10_000);
    expect(summary.devices[0]!.unmatched_frees).toBeGreaterThan(0);
    expect(summary.warnings.join('\n')).toMatch(
      /cuda:0: the trace starts mid-run: \d+ frees have no alloc/,
    );
  });

  it('reports the OOM on device 1 of Constructor-Sun with device_free', async () => {
    const summary = await summarizeFile(realSnapshotPath('Constructor-Sun'));
    const device1 = summary.devices.find((device) => device.device === 1)!;
    expect(device1.oom).toHaveLength(1);
    expect(device1.oom[0]!.device_free_bytes).not.toBeNull();
  });
});
