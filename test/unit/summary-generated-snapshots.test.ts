// Generated snapshots whose figures are known by construction (test/generators/make_snapshots.py
// simulates an allocator and records what it did): ring-buffer wrap, expandable segments, OOM,
// several devices, protocols 2 and 5, legacy layouts, gzip and HTML containers, huge ints.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summaryDocumentSchema } from '@shared/report/summary-report';
import { GENERATED_DIR } from '../setup/global-setup';
import { summarizeFile, withoutWarnings } from '../support/summarize';

interface ManifestEntry {
  case: string;
  file: string;
  description: string;
}

const manifest = JSON.parse(
  readFileSync(join(GENERATED_DIR, 'manifest.json'), 'utf8'),
) as ManifestEntry[];

function comparable(document: object): object {
  const {
    file: _file,
    bytes: _bytes,
    ...rest
  } = withoutWarnings(document) as Record<string, unknown>;
  return rest;
}

describe.each(manifest.map((entry) => [entry.case, entry]))('generated %s', (_name, entry) => {
  it('has the figures the simulation recorded', async () => {
    const ours = await summarizeFile(join(GENERATED_DIR, entry.file), 10);
    const expected = JSON.parse(
      readFileSync(join(GENERATED_DIR, `${entry.case}.expected.json`), 'utf8'),
    ) as object;
    expect(summaryDocumentSchema.safeParse(ours).success).toBe(true);
    expect(comparable(ours)).toEqual(comparable(expected));
  });
});

describe('generated cases cover what the issue asks for', () => {
  it('includes every required kind of input', () => {
    const cases = new Set(manifest.map((entry) => entry.case));
    for (const required of [
      'ring_wrap',
      'expandable',
      'oom',
      'multi_device',
      'protocol2',
      'protocol5',
      'legacy_bare_list',
      'legacy_history',
      'gzip',
      'html',
    ]) {
      expect(cases).toContain(required);
    }
  });
});
