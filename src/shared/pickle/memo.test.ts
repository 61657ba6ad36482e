import { describe, expect, it } from 'vitest';
import { Memo, MemoCode } from './memo';

const CONSUMED = { consumed: true };

describe('Memo', () => {
  it('stores objects, handles and consumed slots across pages, and truncates back exactly', () => {
    const memo = new Memo({
      consumedValue: CONSUMED,
      materializeHandle: (handle) => `handle ${handle}`,
    });
    const objects: unknown[] = [];
    for (let i = 0; i < 200_000; i++) {
      if (i % 3 === 0) {
        memo.push({ i });
        objects.push(memo.get(i));
      } else if (i % 3 === 1) {
        memo.pushConsumed();
      } else {
        memo.pushEmpty();
        memo.setHandle(i, i);
      }
    }
    expect(memo.length).toBe(200_000);
    expect(memo.get(3)).toEqual({ i: 3 });
    expect(memo.get(4)).toBe(CONSUMED);
    expect(memo.get(150_002)).toBe('handle 150002');
    expect(memo.code(150_002)).toBe(150_002);
    expect(memo.get(200_000)).toBeUndefined();

    memo.truncate(100_000);
    expect(memo.length).toBe(100_000);
    expect(memo.get(99_999)).toEqual({ i: 99_999 });
    expect(memo.code(100_000)).toBe(MemoCode.empty);
    memo.push('after');
    expect(memo.get(100_000)).toBe('after');
    expect(memo.lastIndexOf('after', 10)).toBe(100_000);
    expect(memo.lastIndexOf(objects[0], 10)).toBe(-1);
  });

  it('accepts BINPUT-style writes at any index, leaving the gap empty', () => {
    const memo = new Memo({ consumedValue: CONSUMED });
    memo.set(5, 'five');
    expect(memo.length).toBe(6);
    expect(memo.get(2)).toBeUndefined();
    memo.set(5, 'FIVE');
    expect(memo.get(5)).toBe('FIVE');
    memo.setConsumed(5);
    expect(memo.get(5)).toBe(CONSUMED);
  });
});
