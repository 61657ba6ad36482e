import { describe, expect, it } from 'vitest';
import { createSnapshotTokenTable, MAX_LIVE_TOKENS } from './snapshot-tokens';

const run = { path: '/data/run.pickle', fileName: 'run.pickle' };
const other = { path: '/data/other.pickle', fileName: 'other.pickle' };

/** Tokens t1, t2, … in order, or the given ones. */
function counter(given: string[] = []) {
  let next = 1;
  return () => given.shift() ?? `t${next++}`;
}

describe('createSnapshotTokenTable', () => {
  it('gives a token that opens its file once', () => {
    const table = createSnapshotTokenTable();
    const token = table.issue(run, 1);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(table.redeem(token)).toEqual(run);
    expect(table.redeem(token)).toBeNull();
    expect(table.size).toBe(1);
  });

  it('knows no other token', () => {
    const table = createSnapshotTokenTable();
    const token = table.issue(run, 1);
    for (const forged of ['', token.slice(1), `${token}x`, token.toUpperCase(), 'constructor']) {
      if (forged !== token) expect(table.redeem(forged), forged).toBeNull();
    }
    expect(table.redeem(token)).toEqual(run);
  });

  it('gives each hand-over its own token, even for the same file', () => {
    const table = createSnapshotTokenTable();
    const first = table.issue(run, 1);
    const second = table.issue(run, 1);
    expect(second).not.toBe(first);
    expect(table.redeem(first)).toEqual(run);
    expect(table.redeem(second)).toEqual(run);
  });

  it('never reuses a live token, should the generator repeat itself', () => {
    const table = createSnapshotTokenTable({ randomToken: counter(['same', 'same', 'new']) });
    expect(table.issue(run, 1)).toBe('same');
    expect(table.issue(other, 1)).toBe('new');
    expect(table.redeem('same')).toEqual(run);
  });

  it('releases a token to its own page only', () => {
    const table = createSnapshotTokenTable({ randomToken: counter() });
    table.issue(run, 1);
    expect(table.release('t1', 2)).toBeNull();
    expect(table.release('t1', 1)).toEqual(run);
    expect(table.release('t1', 1)).toBeNull();
    expect(table.redeem('t1')).toBeNull();
    expect(table.size).toBe(0);
  });

  it("revokes a page's tokens, used or not, and leaves the others", () => {
    const table = createSnapshotTokenTable({ randomToken: counter() });
    table.issue(run, 1);
    table.issue(other, 1);
    table.issue(other, 2);
    table.redeem('t1');
    table.revoke(1);
    expect(table.size).toBe(1);
    expect(table.redeem('t2')).toBeNull();
    expect(table.redeem('t3')).toEqual(other);
  });

  it('keeps at most so many tokens, dropping the oldest', () => {
    const table = createSnapshotTokenTable({ randomToken: counter(), maxTokens: 3 });
    for (let index = 0; index < 5; index++) table.issue(run, 1);
    expect(table.size).toBe(3);
    expect(table.redeem('t1')).toBeNull();
    expect(table.redeem('t2')).toBeNull();
    expect(table.redeem('t5')).toEqual(run);
    expect(MAX_LIVE_TOKENS).toBeGreaterThanOrEqual(1024);
  });

  it('drops a used token before an unused one (a folder of ranks waits to be fetched)', () => {
    const table = createSnapshotTokenTable({ randomToken: counter(), maxTokens: 3 });
    for (let index = 0; index < 3; index++) table.issue(run, 1);
    expect(table.redeem('t2')).toEqual(run);
    table.issue(run, 1);
    expect(table.size).toBe(3);
    // t2 was used (its fetch under way): it went; t1, not fetched yet, still opens.
    expect(table.redeem('t1')).toEqual(run);
    expect(table.redeem('t3')).toEqual(run);
    expect(table.redeem('t4')).toEqual(run);
  });

  it('keeps its own copy of the file it was given', () => {
    const table = createSnapshotTokenTable({ randomToken: counter() });
    const file = { path: '/data/run.pickle', fileName: 'run.pickle' };
    table.issue(file, 1);
    file.path = '/etc/passwd';
    expect(table.redeem('t1')).toEqual(run);
  });
});
