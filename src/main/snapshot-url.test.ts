import { describe, expect, it } from 'vitest';
import { randomSnapshotToken } from './snapshot-tokens';
import {
  SNAPSHOT_SCHEME,
  SNAPSHOT_SCHEME_PRIVILEGES,
  snapshotUrlOf,
  snapshotUrlSchema,
  tokenOfSnapshotUrl,
} from './snapshot-url';

const token = 'Zx9_-'.repeat(8) + 'abc'; // 43 characters of the base64url alphabet

describe('snapshot URLs', () => {
  it('carry one token and nothing else, and give it back', () => {
    const url = snapshotUrlOf(token);
    expect(url).toBe(`allocscope-file://snapshot/${token}`);
    expect(tokenOfSnapshotUrl(url)).toBe(token);
    expect(snapshotUrlSchema.parse(url)).toBe(url);
    // As URL parsing (Chromium's, for a standard scheme) leaves it: the URL the handler sees.
    expect(new URL(url).href).toBe(url);
  });

  it('are made from fresh random tokens of 256 bits', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => randomSnapshotToken()));
    expect(tokens.size).toBe(100);
    for (const fresh of tokens) expect(tokenOfSnapshotUrl(snapshotUrlOf(fresh))).toBe(fresh);
  });

  it('match nothing but that one form: no paths, queries, other hosts or schemes', () => {
    const refused = [
      '',
      `allocscope-file://snapshot/${token}/`,
      `allocscope-file://snapshot/${token}?x=1`,
      `allocscope-file://snapshot/${token}#x`,
      `allocscope-file://snapshot/${token}/../../etc/passwd`,
      `allocscope-file://snapshot/../${token}`,
      `allocscope-file://snapshot/%2e%2e%2f${token.slice(9)}`,
      `allocscope-file://snapshot/${token.slice(1)}`,
      `allocscope-file://snapshot/${token}x`,
      `allocscope-file://snapshot/${token.slice(1)}=`,
      `allocscope-file://snapshot/${token.slice(1)}.`,
      `allocscope-file://other/${token}`,
      `allocscope-file://SNAPSHOT/${token}`,
      `allocscope-file:///${token}`,
      `allocscope-file:///etc/passwd`,
      `ALLOCSCOPE-FILE://snapshot/${token}`,
      `file://snapshot/${token}`,
      `https://snapshot/${token}`,
      ` allocscope-file://snapshot/${token}`,
      `allocscope-file://snapshot/${token}\n`,
      `allocscope-file://user@snapshot/${token}`,
      `allocscope-file://snapshot:80/${token}`,
    ];
    for (const url of refused) {
      expect(tokenOfSnapshotUrl(url), url).toBeNull();
      expect(snapshotUrlSchema.safeParse(url).success, url).toBe(false);
    }
    expect(() => snapshotUrlOf('../etc/passwd')).toThrow();
  });

  it('belong to a scheme with only the privileges a fetch from the page needs', () => {
    expect(SNAPSHOT_SCHEME).toBe('allocscope-file');
    expect(SNAPSHOT_SCHEME_PRIVILEGES).toEqual({
      standard: true,
      secure: true,
      supportFetchAPI: true,
      corsEnabled: true,
    });
  });
});
