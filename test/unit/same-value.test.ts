// The tests' fast comparison (test/support/same-value.ts) must fail wherever toEqual fails: it may
// only skip toEqual when the two are certainly equal.

import { describe, expect, it } from 'vitest';
import { expectSameValue } from '../support/same-value';

const model = () => ({
  columns: { size: Float64Array.of(1, 2, 3), ids: Int32Array.of(4, 5) },
  names: ['a', 'b'],
  byDevice: new Map<number, Map<number, number>>([[0, new Map([[7, 1]])]]),
  note: null as string | null,
});

describe('expectSameValue', () => {
  it('passes on equal values, typed arrays and Maps included', () => {
    expect(() => expectSameValue(model(), model())).not.toThrow();
  });

  it('fails where toEqual fails', () => {
    const cases: ((m: ReturnType<typeof model>) => void)[] = [
      (m) => (m.columns.size[2] = 4),
      (m) => (m.columns.ids = Int32Array.of(4, 5, 6)),
      (m) => m.names.push('c'),
      (m) => m.byDevice.get(0)!.set(7, 2),
      (m) => m.byDevice.set(1, new Map()),
      (m) => (m.note = 'x'),
    ];
    for (const change of cases) {
      const changed = model();
      change(changed);
      expect(() => expectSameValue(changed, model())).toThrow();
    }
  });
});
