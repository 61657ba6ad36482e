// The detail columns of the newest snapshots (user_metadata, compile_context, category) appear
// only when some allocation has them; allocationDetails is stubbed with one row that does.

import { describe, expect, it, vi } from 'vitest';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { NO_DETAILS } from '@shared/analyzed/allocation-details';
import { TEST_FRAMES, TEST_STACKS, testDevice } from '../support/builders/analyzed-device';
import {
  ALLOCATIONS_CSV_COLUMNS,
  buildAllocationsCsv,
} from '../../src/renderer/export/allocations-csv';
import { parseCsv } from '../support/csv';

const METADATA = '{"step": 3, "note": "a, \\"quoted\\" value"}';

vi.mock('@shared/analyzed/allocation-details', async (importOriginal) => {
  const original = await importOriginal<typeof import('@shared/analyzed/allocation-details')>();
  return {
    ...original,
    allocationDetails: (_view: unknown, _device: unknown, row: number) =>
      row === 2
        ? { ...original.NO_DETAILS, userMetadata: METADATA, compileContext: 'graph 0 / frame 1' }
        : original.NO_DETAILS,
  };
});

const snapshot = {
  streams: [0, 1],
  frames: TEST_FRAMES,
  stacks: TEST_STACKS,
} as unknown as AnalyzedSnapshot;
const AT_ONCE = { pause: async () => {}, now: () => 0, sliceMs: Infinity };

describe('detail columns', () => {
  it('adds the columns some row has, quoted, empty for the others', async () => {
    expect(NO_DETAILS.userMetadata).toBeNull();
    const text = await buildAllocationsCsv(snapshot, testDevice(), 3, AT_ONCE);
    const [header, ...rows] = parseCsv(text);
    // No row has a category: no category column.
    expect(header).toEqual([...ALLOCATIONS_CSV_COLUMNS, 'user_metadata', 'compile_context']);
    const metadata = rows.map((row) => row[header!.indexOf('user_metadata')]);
    // Rows in output order: 0, 2 (alive at event 3), then 1.
    expect(metadata).toEqual(['', METADATA, '']);
    expect(rows.map((row) => row[header!.indexOf('compile_context')])).toEqual([
      '',
      'graph 0 / frame 1',
      '',
    ]);
  });
});
