// The Steps picture (the Steps view's export, render --view steps) draws the reserved bytes at
// each step's end only where the file records them: a recorded CPU profiler trace (Total
// Reserved 0 at every [memory] event) gets no reserved line or legend entry at 0 B; an H200
// snapshot keeps its line, through its steps' reserved bytes.

import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderStepsSvg } from '../../src/shared/render/steps-svg';
import { findSteps } from '../../src/shared/steps/find-steps';
import { analyzeGrowth } from '../../src/shared/steps/growth';
import { analyzeFile } from '../support/analyzed';

const FIXTURES = resolve(import.meta.dirname, '../fixtures');

async function picture(path: string) {
  const snapshot = await analyzeFile(path);
  const device = snapshot.devices[0]!;
  const growth = analyzeGrowth(snapshot, device, findSteps(snapshot, device));
  return { device, growth, svg: renderStepsSvg(snapshot, 0, growth, { width: 1200, height: 600 }) };
}

describe('the Steps picture and reserved bytes', () => {
  it('a CPU profiler trace: no reserved line, no legend entry', async () => {
    const { device, growth, svg } = await picture(join(FIXTURES, 'profiler/leak.pt.trace.json.gz'));
    expect(device.figures.reservedRecorded).toBe(false);
    expect(growth.steps).toHaveLength(6);
    expect(svg).toContain('data-mark="end-active"');
    expect(svg).not.toContain('data-mark="end-reserved"');
    expect(svg).not.toContain('reserved at its end');
  });

  it('an H200 snapshot: the reserved line, one point per step', async () => {
    const { device, growth, svg } = await picture(join(FIXTURES, 'cuda-h200/steps.pickle.gz'));
    expect(device.figures.reservedRecorded).toBe(true);
    const line = /data-mark="end-reserved" d="([^"]*)"/.exec(svg)![1]!;
    expect(line.match(/[ML]/g)).toHaveLength(growth.steps.length);
    expect(svg).toContain('reserved at its end');
  });
});
