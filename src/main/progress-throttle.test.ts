import { describe, expect, it } from 'vitest';
import { throttleProgress } from './progress-throttle';

describe('throttleProgress', () => {
  it('passes one update per interval and every change of stage', () => {
    let time = 0;
    const sent: string[] = [];
    const update = throttleProgress<{ stage: string; n: number }>(
      ({ stage, n }) => void sent.push(`${stage}${n}`),
      50,
      () => time,
    );
    update({ stage: 'reading', n: 1 });
    time = 10;
    update({ stage: 'reading', n: 2 });
    time = 60;
    update({ stage: 'reading', n: 3 });
    time = 61;
    update({ stage: 'building', n: 4 });
    update({ stage: 'analyzing', n: 5 });
    expect(sent).toEqual(['reading1', 'reading3', 'building4', 'analyzing5']);
  });
});
