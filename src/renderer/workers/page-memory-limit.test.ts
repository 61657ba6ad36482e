import { describe, expect, it } from 'vitest';
import { NO_MEMORY_LIMIT } from '@shared/snapshot/unpacked-budget';
import { pageMemoryLimit } from './page-memory-limit';

describe('pageMemoryLimit', () => {
  it("is the device's memory where the browser reports less than its cap", () => {
    expect(pageMemoryLimit(4)).toEqual({
      bytes: 4 * 2 ** 30,
      source: "this device's memory, as the browser reports it",
      chosen: false,
    });
    expect(pageMemoryLimit(0.5).bytes).toBe(2 ** 29);
  });

  it('is only the ratio where the browser says 8 GiB (8 or more) or nothing', () => {
    expect(pageMemoryLimit(8)).toBe(NO_MEMORY_LIMIT);
    expect(pageMemoryLimit(undefined)).toBe(NO_MEMORY_LIMIT);
    expect(pageMemoryLimit(Number.NaN)).toBe(NO_MEMORY_LIMIT);
  });
});
