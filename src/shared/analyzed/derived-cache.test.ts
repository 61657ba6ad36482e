import { describe, expect, it } from 'vitest';
import { DerivedCache, derivedKey, postableDerivedKey, sharedPostableNames } from './derived-cache';

const PLAIN = postableDerivedKey<{ rows: Int32Array; note: string }>('test: plain');
const LOCAL = derivedKey<number>('test: local');
// A value that needs its owner to be whole again (as the timeline index needs its device).
const WITH_OWNER = postableDerivedKey<{ total: number; owner: unknown }>('test: with owner', {
  post: (value) => value.total,
  adopt: (posted, owner) => ({ total: posted as number, owner }),
});

describe('DerivedCache', () => {
  it('builds once and keeps the value', () => {
    const cache = new DerivedCache();
    let builds = 0;
    expect(cache.get(LOCAL, () => ++builds)).toBe(1);
    expect(cache.get(LOCAL, () => ++builds)).toBe(1);
    expect(cache.peek(LOCAL)).toBe(1);
    expect(cache.peek(PLAIN)).toBeUndefined();
  });

  it('posts only postable values, and the adopted cache answers from them without building', () => {
    const worker = new DerivedCache();
    worker.get(PLAIN, () => ({ rows: Int32Array.of(3, 1, 2), note: 'built there' }));
    worker.get(LOCAL, () => 7);
    worker.get(WITH_OWNER, () => ({ total: 42, owner: null }));
    const posted = structuredClone(worker.toPost());
    expect(posted.map((entry) => entry.name).sort()).toEqual(['test: plain', 'test: with owner']);

    const owner = { name: 'device 0' };
    const page = new DerivedCache(posted, owner);
    const refuse = (): never => {
      throw new Error('built again');
    };
    expect(page.peek(PLAIN)).toEqual({ rows: Int32Array.of(3, 1, 2), note: 'built there' });
    expect(page.get(PLAIN, refuse)).toBe(page.peek(PLAIN));
    expect(page.get(WITH_OWNER, refuse)).toEqual({ total: 42, owner });
    // Not posted: built here.
    expect(page.get(LOCAL, () => 8)).toBe(8);
  });

  it('builds what was not posted, and ignores names it has no key for', () => {
    const page = new DerivedCache([{ name: 'from a newer worker', value: 1 }]);
    expect(page.get(PLAIN, () => ({ rows: new Int32Array(0), note: 'built here' })).note).toBe(
      'built here',
    );
  });

  it('counts two postable keys of one name (posted values are matched by name)', () => {
    expect(sharedPostableNames()).toEqual([]);
    postableDerivedKey('test: plain');
    expect(sharedPostableNames()).toEqual(['test: plain']);
  });
});
