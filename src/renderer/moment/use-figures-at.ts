// The allocator's figures at one moment, in total and per pool, stream and size class; null
// (and no groups) while the state index is being built.

import { useMemo } from 'react';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import {
  figuresByGroup,
  figuresOfState,
  type GroupFigures,
  type MemoryFigures,
} from '@shared/state/memory-figures';
import { useStateAt } from './use-allocator-state';

export function useFiguresAt(
  stateIndex: AllocatorStateIndex | null,
  event: number,
  smallHoleThresholdBytes: number,
): { figures: MemoryFigures | null; groups: GroupFigures[] } {
  const state = useStateAt(stateIndex, event);
  const figures = useMemo(
    () => (state === null ? null : figuresOfState(state, smallHoleThresholdBytes)),
    [state, smallHoleThresholdBytes],
  );
  const groups = useMemo(
    () => (state === null ? [] : figuresByGroup(state, smallHoleThresholdBytes)),
    [state, smallHoleThresholdBytes],
  );
  return { figures, groups };
}
