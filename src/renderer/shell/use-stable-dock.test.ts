import { describe, expect, it } from 'vitest';
import { panelPlacement } from './use-stable-dock';

describe('panelPlacement', () => {
  it('docks an open panel whose column is there, and floats one whose column is not yet', () => {
    expect(panelPlacement(true, true)).toBe('docked');
    expect(panelPlacement(true, false)).toBe('floating');
  });

  it('keeps the empty column of a panel closed under the pointer, else none', () => {
    expect(panelPlacement(false, true)).toBe('reserved');
    expect(panelPlacement(false, false)).toBe('none');
  });
});
