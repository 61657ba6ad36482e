import { describe, expect, it } from 'vitest';
import { tableMomentOf } from '../allocations/allocations-view-entry';
import { commandOf, SHORTCUTS } from '../state/keyboard-shortcuts';
import { LOWER_VIEWS, lowerViewOfCommand, PAGE_SHORTCUTS, shownLowerView } from './lower-views';

const stroke = (key: string) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
});

describe('the registry of lower views', () => {
  it('has one entry per view, each with its own id and key, in the order of the tabs', () => {
    expect(LOWER_VIEWS.map((view) => view.id)).toEqual([
      'largest',
      'segments',
      'fragmentation',
      'oom',
      'holders',
      'steps',
      'compare',
    ]);
    expect(new Set(LOWER_VIEWS.map((view) => view.id)).size).toBe(LOWER_VIEWS.length);
    expect(new Set(LOWER_VIEWS.map((view) => view.key)).size).toBe(LOWER_VIEWS.length);
    for (const view of LOWER_VIEWS) {
      expect(view.label, view.id).not.toBe('');
      expect(view.title, view.id).not.toBe('');
      expect(view.help, view.id).not.toBe('');
      expect(view.clickHint, view.id).not.toBe('');
    }
  });

  it('its keys are free in the rest of the table, and each shows its view', () => {
    for (const view of LOWER_VIEWS) {
      // No other shortcut of any scope takes the key.
      expect(commandOf(stroke(view.key), 'page', SHORTCUTS), view.key).toBeNull();
      expect(commandOf(stroke(view.key), 'chart', SHORTCUTS), view.key).toBeNull();
      expect(commandOf(stroke(view.key), 'app', SHORTCUTS), view.key).toBeNull();
      const command = commandOf(stroke(view.key), 'page', PAGE_SHORTCUTS);
      expect(command).toBe(`view-${view.id}`);
      expect(lowerViewOfCommand(command!)).toBe(view);
    }
    expect(LOWER_VIEWS.map((view) => view.key)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(lowerViewOfCommand('zoom-in')).toBeNull();
    expect(lowerViewOfCommand('view-nothing')).toBeNull();
  });

  it('the help lists each view with its line, in the Views group', () => {
    for (const view of LOWER_VIEWS) {
      const shortcut = PAGE_SHORTCUTS.find((entry) => entry.command === `view-${view.id}`);
      expect(shortcut).toMatchObject({ group: 'Views', description: view.help, scope: 'page' });
    }
  });

  it('shows the chosen view, else the OOM explainer after an OOM, else the allocations', () => {
    expect(shownLowerView('segments', true).id).toBe('segments');
    expect(shownLowerView(null, true).id).toBe('oom');
    expect(shownLowerView(null, false).id).toBe('largest');
    // A choice the list does not have (an older build's) falls back the same way.
    expect(shownLowerView('gone', false).id).toBe('largest');
  });

  it('lists the table at the peak until a moment is chosen, unless the device ran out of memory', () => {
    expect(tableMomentOf(null, false, 42)).toBeNull();
    expect(tableMomentOf(7, false, 7)).toBe(7);
    expect(tableMomentOf(null, true, 3)).toBe(3);
  });

  it('says what a click on the timeline does for each view', () => {
    const hint = (id: string): string => shownLowerView(id, false).clickHint;
    expect(hint('largest')).toBe('Click to list the allocations alive here.');
    expect(hint('segments')).toMatch(/segments at this moment/);
    expect(hint('fragmentation')).toMatch(/fragmentation figures at this moment/);
    // The OOM view explains each OOM whatever the moment: the hint must not promise a list.
    expect(hint('oom')).not.toMatch(/list/);
  });
});
