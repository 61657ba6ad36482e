import { describe, expect, it } from 'vitest';
import { annotationLabels, fitText, LABEL_PADDING } from './annotation-labels';

/** A monospace measure: 6 px per character. */
const measure = (text: string): number => Array.from(text).length * 6;

describe('annotationLabels', () => {
  it('writes a name whole where it fits, cut with an ellipsis where it does not, and skips narrow spans', () => {
    const labels = annotationLabels(
      [
        { name: 'forward', depth: 0, x0: 0, x1: 100 },
        { name: 'optimizer.step', depth: 0, x0: 100, x1: 160 },
        { name: 'tiny', depth: 0, x0: 160, x1: 170 },
        { name: 'deep', depth: 2, x0: 0, x1: 400 },
        { name: 'inner', depth: 1, x0: 10, x1: 90 },
      ],
      400,
      measure,
    );
    expect(labels.map((label) => [label.text, label.depth])).toEqual([
      ['forward', 0],
      ['optimize…', 0],
      ['inner', 1],
    ]);
    for (const label of labels) {
      expect(label.x).toBe(label.left + LABEL_PADDING);
      expect(label.x + measure(label.text)).toBeLessThanOrEqual(label.right - LABEL_PADDING);
    }
  });

  it('keeps labels of spans that run past the picture inside it', () => {
    const [label] = annotationLabels([{ name: 'step', depth: 0, x0: -500, x1: 50 }], 300, measure);
    expect(label!.left).toBe(0);
    expect(label!.text).toBe('step');
  });
});

describe('fitText', () => {
  it('keeps the longest start that fits with its ellipsis', () => {
    expect(fitText('abcdefghij', 60, measure)).toBe('abcdefghij');
    expect(fitText('abcdefghij', 59, measure)).toBe('abcdefgh…');
    expect(fitText('abcdefghij', 12, measure)).toBeNull();
  });
});

describe('fitText on a name of megabytes (issue 20)', () => {
  it('measures no more of it than could fit, and cuts it as a short name is cut', () => {
    const measured: number[] = [];
    const measure = (text: string): number => {
      measured.push(text.length);
      return text.length * 6;
    };
    const long = `step ${'1'.repeat(1 << 20)}x`;
    const text = fitText(long, 120, measure);
    expect(text).toBe(fitText(long.slice(0, 40), 120, (t) => t.length * 6));
    expect(text).toBe(`${long.slice(0, 19)}…`);
    expect(Math.max(...measured)).toBeLessThanOrEqual(122);
  });
});
