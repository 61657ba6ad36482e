// How the stack panel shares its height between the stack and the details below it. By default
// the stack takes what the details leave (they take at most 40%); dragging the divider sets the
// stack's share, kept in the tab's store (remembered across sessions) as a fraction so it fits any
// window.

import { useCallback, useEffect, useState, type CSSProperties, type RefObject } from 'react';
import { useTab, useTabStore } from '../state/tab-store-context';

/** The stack keeps room for a few frames; the details for a line or two. */
export const STACK_MIN_PX = 120;
export const DETAILS_MIN_PX = 48;

export interface StackSplit {
  /** The stack section's height now, in CSS pixels (the divider's value). */
  stackHeight: number;
  min: number;
  max: number;
  setStackHeight: (px: number) => void;
  reset: () => void;
  /** Inline style of the stack section (undefined: the stylesheet's default share). */
  stackStyle: CSSProperties | undefined;
}

/**
 * `root` is the panel, `stack` its stack section; the details section is the stack's next
 * element sibling but one (after the divider).
 */
export function useStackSplit(
  root: RefObject<HTMLElement | null>,
  stack: RefObject<HTMLElement | null>,
): StackSplit {
  const share = useTab((state) => state.stackShare);
  const setShare = useTabStore().getState().setStackShare;
  // Heights of the stack and of stack + details, measured whenever the panel changes size.
  const [sizes, setSizes] = useState({ stack: 0, shared: 0 });

  useEffect(() => {
    const panel = root.current;
    if (panel === null || typeof ResizeObserver === 'undefined') return;
    const measure = (): void => {
      const stackSection = stack.current;
      const details = stackSection?.nextElementSibling?.nextElementSibling as HTMLElement | null;
      if (stackSection === null || details === null || details === undefined) return;
      const next = {
        stack: stackSection.offsetHeight,
        shared: stackSection.offsetHeight + details.offsetHeight,
      };
      setSizes((previous) =>
        previous.stack === next.stack && previous.shared === next.shared ? previous : next,
      );
    };
    const observer = new ResizeObserver(measure);
    observer.observe(panel);
    if (stack.current !== null) observer.observe(stack.current);
    measure();
    return () => observer.disconnect();
  }, [root, stack]);

  const max = Math.max(STACK_MIN_PX, sizes.shared - DETAILS_MIN_PX);
  const setStackHeight = useCallback(
    (px: number) => {
      if (sizes.shared <= 0) return;
      const next = Math.min(0.95, Math.max(0.05, px / sizes.shared));
      setShare(next);
    },
    [sizes.shared, setShare],
  );
  const reset = useCallback(() => setShare(null), [setShare]);

  const stackStyle =
    share === null || sizes.shared <= 0
      ? undefined
      : {
          flex: `0 0 ${Math.round(Math.min(max, Math.max(STACK_MIN_PX, share * sizes.shared)))}px`,
        };
  return { stackHeight: sizes.stack, min: STACK_MIN_PX, max, setStackHeight, reset, stackStyle };
}
