import { describe, expect, it } from 'vitest';
import { distinctiveStarts, tabLabels } from './tab-labels';

const runs = [128, 256, 512, 1024].map(
  (ctx) =>
    `LINYUNLinYun_CS336-assignment2-systems__results__memory_profiles__xl_ctx${ctx}_full_step_bf16.pickle`,
);

describe('tabLabels', () => {
  it('keeps names that fit', () => {
    expect(tabLabels(['a.pickle', 'b.pickle'])).toEqual(['a.pickle', 'b.pickle']);
  });

  it('keeps the part where runs of one experiment differ, within the length', () => {
    const labels = tabLabels(runs);
    expect(new Set(labels).size).toBe(runs.length);
    labels.forEach((label, i) => {
      expect(label.length).toBeLessThanOrEqual(28);
      expect(label).toContain(`ctx${[128, 256, 512, 1024][i]}`);
      expect(label.startsWith('LINYUN')).toBe(true);
      expect(label.endsWith('.pickle')).toBe(true);
    });
  });

  it('cuts a single long name in the middle, keeping its start and end', () => {
    const [label] = tabLabels([runs[0]!]);
    expect(label!.length).toBeLessThanOrEqual(28);
    expect(label!.startsWith('LINYUN')).toBe(true);
    expect(label!.endsWith('.pickle')).toBe(true);
    expect(label).toContain('…');
  });

  it('tells apart names that differ only at the very end or the very start', () => {
    const long = 'x'.repeat(60);
    const atEnd = tabLabels([`${long}_1.pickle`, `${long}_2.pickle`]);
    expect(atEnd[0]).not.toBe(atEnd[1]);
    const atStart = tabLabels([`a_${long}.pickle`, `b_${long}.pickle`]);
    expect(atStart[0]).not.toBe(atStart[1]);
  });

  it('gives the same label to the same file opened twice', () => {
    const [a, b] = tabLabels([runs[0]!, runs[0]!, runs[1]!]);
    expect(a).toBe(b);
  });
});

describe('distinctiveStarts', () => {
  it('starts at the word that tells ranks apart, and at 0 for a name alone or unlike the rest', () => {
    const labels = ['trainer_rank_3.pickle', 'trainer_rank_12.pickle', 'snapshot_r1.pickle'];
    const starts = distinctiveStarts(labels);
    expect(labels.map((label, i) => label.slice(starts[i]))).toEqual([
      'rank_3.pickle',
      'rank_12.pickle',
      'snapshot_r1.pickle',
    ]);
    expect(distinctiveStarts(['snapshot_r3.pickle', 'snapshot_r4.pickle'])).toEqual([9, 9]);
    expect(distinctiveStarts(['run.pickle'])).toEqual([0]);
    expect(distinctiveStarts(['a.pickle', 'a.pickle'])).toEqual([0, 0]);
  });
});
