// Fuzz campaign seed 20261128, case 14038 (slow, memory; 946 KB, not kept: generated here): every
// allocation's user_metadata is JSON text of a list nested 451,029 deep, and an annotate entry
// holds "n" repeated. The details of 1,000 live allocations ran JSON.parse on the 902,058
// characters once each (~230 ms and ~17 MB apiece: 4.4 s of CPU, 319 MiB). Now the text is seen
// to nest deeper than a snapshot may before any parse, once per distinct text, and the details
// say why it is shown as written.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { allocationDetails } from '../../src/shared/analyzed/allocation-details';
import { analyzeBytes } from '../support/analyzed';
import { deepJsonText, snapshotWithStacks } from '../support/hostile-labels';

// Where snapshotWithStacks puts its first allocation: the annotation names it.
const BASE = 0x7f0000000000;
const DEPTH = 451_029;
const ALLOCATIONS = 200;

afterEach(() => vi.restoreAllMocks());

describe('user_metadata nested 451,029 deep on every allocation', () => {
  it('is never parsed: shown as written, saying why; plain JSON is parsed once per text', async () => {
    const frame = { filename: 'train.py', line: 62, name: 'forward' };
    const deep = deepJsonText(DEPTH);
    const bytes = snapshotWithStacks(
      Array.from({ length: ALLOCATIONS }, (_, i) => [{ ...frame, line: i }]),
      {
        // Every other allocation: the deep text; the rest one small JSON dict.
        entryFields: (i) => ({ user_metadata: i % 2 === 0 ? deep : '{"step": 3}' }),
        traceExtra: [
          {
            action: 'annotate',
            addr: BASE,
            size: 0,
            stream: 0,
            time_us: 5_000,
            user_metadata: 'n'.repeat(100_000),
            frames: [frame],
          },
        ],
      },
    );
    const snapshot = await analyzeBytes(bytes);
    const device = snapshot.devices[0]!;
    const parse = vi.spyOn(JSON, 'parse');
    let deepRows = 0;
    for (let row = 0; row < device.allocations.count; row++) {
      const details = allocationDetails(snapshot, device, row);
      if (details.userMetadata === deep) {
        deepRows++;
        expect(details.userMetadataParsed).toBeUndefined();
        expect(details.userMetadataNotRead).toBe('nested more than 4,096 levels deep');
      } else {
        expect(details.userMetadataParsed).toEqual({ step: 3 });
        expect(details.userMetadataNotRead).toBeNull();
      }
      expect(details.annotations).toHaveLength(row === 0 ? 1 : 0);
      for (const annotation of details.annotations) {
        expect(annotation.parsed).toBeUndefined();
        expect(annotation.notRead).toBeNull();
      }
    }
    expect(deepRows).toBe(ALLOCATIONS / 2);
    // The small dict once, the annotation's "nnn…" once (JSON.parse refuses it at its 2nd
    // character); the deep text never.
    expect(parse.mock.calls.map(([text]) => String(text).slice(0, 12)).sort()).toEqual([
      'nnnnnnnnnnnn',
      '{"step": 3}',
    ]);
  });
});
