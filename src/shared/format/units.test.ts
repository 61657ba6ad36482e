import { describe, expect, it } from 'vitest';
import { formatBytes, formatExactBytes, formatSignedBytes } from './units';

describe('formatSignedBytes', () => {
  it('always writes the sign, a true minus for a fall, plus for none', () => {
    expect(formatSignedBytes(96 * 2 ** 20)).toBe('+96.0 MiB');
    expect(formatSignedBytes(-(2 ** 30))).toBe('−1.0 GiB');
    expect(formatSignedBytes(0)).toBe('+0 B');
  });

  it('writes the magnitude as the caller does (exact bytes in the CLI)', () => {
    const withExact = (bytes: number): string =>
      `${formatBytes(bytes)} (${formatExactBytes(bytes)} B)`;
    expect(formatSignedBytes(-1536, withExact)).toBe('−1.5 KiB (1,536 B)');
  });
});
