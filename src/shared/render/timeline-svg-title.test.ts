import { describe, expect, it } from 'vitest';
import { createEventAxis } from '../chart/event-axis';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import { timelineSvgTitle } from './timeline-svg-title';

const snapshot = { fileName: 'run.pickle' } as AnalyzedSnapshot;
const device = testDevice();
const peaks = 'peak active 3.5 KiB, reserved 8.0 KiB';

describe('timelineSvgTitle', () => {
  it('says what part of the trace is shown, and over how long', () => {
    const events = createEventAxis(device, 'event');
    expect(timelineSvgTitle(snapshot, device, events, 0, 4, null)).toBe(
      `run.pickle · cuda:0 · all 4 events · ${peaks}`,
    );
    expect(timelineSvgTitle(snapshot, device, events, 1, 3, 2)).toBe(
      `run.pickle · cuda:0 · events 1–2 of 4 · ${peaks} · moment: after event 2`,
    );
    const times = createEventAxis(device, 'time');
    expect(timelineSvgTitle(snapshot, device, times, 0, 2, -1)).toBe(
      `run.pickle · cuda:0 · events 0–1 of 4 · 1.0 ms shown · ${peaks} · moment: before the first event`,
    );
  });

  it('says when the trace is empty', () => {
    const empty = { ...device, traceLength: 0 };
    expect(timelineSvgTitle(snapshot, empty, createEventAxis(empty, 'event'), -1, 0, null)).toBe(
      `run.pickle · cuda:0 · no trace entries (final state) · ${peaks}`,
    );
  });
});
