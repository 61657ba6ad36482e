import { describe, expect, it } from 'vitest';
import { copyToClipboard } from './clipboard';

describe('copyToClipboard', () => {
  it('writes the text and says so', async () => {
    const written: string[] = [];
    const clipboard = { writeText: (text: string) => Promise.resolve(void written.push(text)) };
    expect(await copyToClipboard('report', clipboard)).toBe(true);
    expect(written).toEqual(['report']);
  });

  it('answers false where there is no clipboard or writing it is refused', async () => {
    expect(await copyToClipboard('report', null)).toBe(false);
    const refusing = {
      writeText: () =>
        Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
    };
    expect(await copyToClipboard('report', refusing)).toBe(false);
  });
});
