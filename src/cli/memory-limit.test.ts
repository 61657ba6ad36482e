import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cliMemoryLimit, maxMemoryOption, parseByteSize } from './memory-limit';

describe('parseByteSize', () => {
  it('reads sizes as people write them, in binary units', () => {
    expect(parseByteSize('8G')).toBe(8 * 2 ** 30);
    expect(parseByteSize('512M')).toBe(512 * 2 ** 20);
    expect(parseByteSize('1.5GiB')).toBe(1.5 * 2 ** 30);
    expect(parseByteSize('8gb')).toBe(8 * 2 ** 30);
    expect(parseByteSize('64k')).toBe(65_536);
    expect(parseByteSize('1T')).toBe(2 ** 40);
    expect(parseByteSize('2000000000')).toBe(2_000_000_000);
  });

  it('takes nothing else', () => {
    for (const text of ['', 'G', 'lots', '-1G', '0', '0G', '1e9', '8 GB extra', '1P', '2000T'])
      expect(parseByteSize(text), text).toBeNull();
  });
});

describe('maxMemoryOption', () => {
  it('rounds up to whole GiB, or whole MiB below one GiB', () => {
    expect(maxMemoryOption(8.4 * 2 ** 30)).toBe('--max-memory 9G');
    expect(maxMemoryOption(2 ** 30)).toBe('--max-memory 1G');
    expect(maxMemoryOption(384.5 * 2 ** 20)).toBe('--max-memory 385M');
    expect(maxMemoryOption(10)).toBe('--max-memory 1M');
  });
});

describe('cliMemoryLimit', () => {
  it("defaults to this machine's memory, the ratio's limit standing", () => {
    const limit = cliMemoryLimit(null);
    expect(limit.bytes).toBeGreaterThan(0);
    expect(limit.bytes).toBeLessThanOrEqual(totalmem());
    expect(limit.chosen).toBe(false);
    expect(limit.source).toBe("this machine's memory");
  });

  it('takes --max-memory as the one limit, and says how to raise it', () => {
    const limit = cliMemoryLimit(2 ** 30);
    expect(limit).toMatchObject({ bytes: 2 ** 30, chosen: true, source: 'set by --max-memory' });
    expect(limit.raiseTo?.(8.4 * 2 ** 30, false)).toBe('--max-memory 9G allows it');
    expect(limit.raiseTo?.(8.4 * 2 ** 30, true)).toBe('--max-memory SIZE raises the limit');
  });
});
