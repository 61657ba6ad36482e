import { describe, expect, it } from 'vitest';
import { NOT_FOUND, SequenceTable } from './sequence-table';

describe('SequenceTable', () => {
  it('finds exactly the stored sequence, and keeps the first one on a hash collision', () => {
    const table = new SequenceTable();
    const a = Int32Array.from([5, 9, 13]);
    const b = Int32Array.from([5, 9, 14]);
    table.add(42, a, 3, 100);
    expect(table.find(42, a, 3)).toBe(100);
    expect(table.find(42, b, 3)).toBe(NOT_FOUND); // same hash, other content
    expect(table.find(42, a, 2)).toBe(NOT_FOUND); // a prefix is not the sequence
    expect(table.find(7, a, 3)).toBe(NOT_FOUND);
    table.add(42, b, 3, 200);
    expect(table.find(42, b, 3)).toBe(NOT_FOUND);
    expect(table.find(42, a, 3)).toBe(100);
  });

  it('grows past its initial storage', () => {
    const table = new SequenceTable();
    const long = Int32Array.from({ length: 70_000 }, (_, i) => i);
    table.add(1, long, long.length, 1);
    for (let hash = 2; hash < 50; hash++) table.add(hash, long, 1000 + hash, hash);
    expect(table.find(1, long, long.length)).toBe(1);
    expect(table.find(49, long, 1049)).toBe(49);
  });
});
