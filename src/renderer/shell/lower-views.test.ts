import { describe, expect, it } from 'vitest';
import { commandOf } from '../state/keyboard-shortcuts';
import {
  LOWER_VIEWS,
  lowerViewOfCommand,
  shownLowerView,
  tableMomentOf,
  timelineClickHint,
} from './lower-views';

describe('lower views', () => {
  it('has one tab per view', () => {
    expect(LOWER_VIEWS.map((view) => view.id)).toEqual([
      'largest',
      'segments',
      'fragmentation',
      'oom',
      'holders',
      'steps',
      'compare',
    ]);
  });

  it('is shown by the keys 1 to 7, in the order of the tabs', () => {
    const byKey = ['1', '2', '3', '4', '5', '6', '7'].map((key) => {
      const command = commandOf(
        { key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false },
        'page',
      );
      return command === null ? null : lowerViewOfCommand(command);
    });
    expect(byKey).toEqual(LOWER_VIEWS.map((view) => view.id));
    expect(lowerViewOfCommand('zoom-in')).toBeNull();
  });

  it('shows the chosen view, else the OOM explainer after an OOM, else the largest allocations', () => {
    expect(shownLowerView('segments', true)).toBe('segments');
    expect(shownLowerView(null, true)).toBe('oom');
    expect(shownLowerView(null, false)).toBe('largest');
  });

  it('lists the table at the peak until a moment is chosen, unless the device ran out of memory', () => {
    expect(tableMomentOf(null, false, 42)).toBeNull();
    expect(tableMomentOf(7, false, 7)).toBe(7);
    expect(tableMomentOf(null, true, 3)).toBe(3);
  });
});

describe('timelineClickHint', () => {
  it('says what a click on the timeline does for the view below it', () => {
    expect(timelineClickHint('largest')).toBe('Click to list the allocations alive here.');
    expect(timelineClickHint('segments')).toMatch(/segments at this moment/);
    expect(timelineClickHint('fragmentation')).toMatch(/fragmentation figures at this moment/);
    // The OOM view explains each OOM whatever the moment: the hint must not promise a list.
    expect(timelineClickHint('oom')).not.toMatch(/list/);
    for (const tab of LOWER_VIEWS) expect(timelineClickHint(tab.id)).not.toBe('');
  });
});
