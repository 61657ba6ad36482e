// Decode + analyse + summary document, the same path as `allocscope summary --json`.

import { analyzeSnapshot } from '@shared/analysis/snapshot-analysis';
import { buildSummaryDocument, type SummaryDocument } from '@shared/report/summary-report';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { readSnapshotFile } from '../../src/cli/read-snapshot-file';

export async function summarizeFile(path: string, top = 10): Promise<SummaryDocument> {
  const { model, fileName, fileBytes } = await readSnapshotFile(path);
  return buildSummaryDocument(model, analyzeSnapshot(model), { fileName, fileBytes, top });
}

const REFERENCE_SCRIPT = resolve(import.meta.dirname, '../reference/summary_reference.py');

/** The independent Python computation of the same document. */
export function referenceSummary(path: string, top = 10): Record<string, unknown> {
  const output = execFileSync('python3', [REFERENCE_SCRIPT, path, '--top', String(top)], {
    maxBuffer: 1 << 28,
  });
  return JSON.parse(output.toString('utf8')) as Record<string, unknown>;
}

/**
 * Documents compared without their free-text warnings and without the stacks' labels
 * (`top_frame`: words by the rule of src/shared/analysis/user-frame.ts, checked on every real
 * stack by test/unit/user-frame-real.test.ts; the reference computes figures, not words).
 */
export function withoutWarnings(document: object): object {
  const { warnings: _warnings, ...rest } = document as { warnings?: unknown };
  const devices = (rest as { devices?: unknown }).devices;
  if (!Array.isArray(devices)) return rest;
  return {
    ...rest,
    devices: devices.map((device: Record<string, unknown>) => {
      const largest = device['largest_allocations_at_peak'];
      if (!Array.isArray(largest)) return device;
      return {
        ...device,
        largest_allocations_at_peak: largest.map((allocation: Record<string, unknown>) => {
          const { top_frame: _label, ...figures } = allocation;
          return figures;
        }),
      };
    }),
  };
}
