// A divider between two panes (the WAI-ARIA window splitter): drag it, or focus it and press the
// arrows (Shift: further), Home or End; double-click (or Enter) gives back the default size. Its
// value is the size of the pane before it (above, or on the left), in CSS pixels.

import { useRef, type JSX, type KeyboardEvent, type PointerEvent } from 'react';
import { separatorKeyValue } from './separator-keys';

export interface PaneSeparatorProps {
  /** 'horizontal': a line between a pane above and one below; 'vertical': left and right. */
  orientation: 'horizontal' | 'vertical';
  /** Size of the pane before the divider. */
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
  onReset: () => void;
  label: string;
  /** id of the pane before the divider. */
  controls?: string;
  testId?: string;
}

interface Drag {
  pointerId: number;
  start: number;
  startValue: number;
}

export function PaneSeparator(props: PaneSeparatorProps): JSX.Element {
  const { orientation, value, min, max, onChange, onReset } = props;
  const drag = useRef<Drag | null>(null);
  const along = (event: PointerEvent): number =>
    orientation === 'horizontal' ? event.clientY : event.clientX;

  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    if (event.button !== 0) return;
    event.preventDefault(); // no text selection while dragging
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus({ preventScroll: true });
    drag.current = { pointerId: event.pointerId, start: along(event), startValue: value };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    const current = drag.current;
    if (current === null || current.pointerId !== event.pointerId) return;
    const next = current.startValue + along(event) - current.start;
    onChange(Math.round(Math.max(min, Math.min(max, next))));
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>): void => {
    if (drag.current?.pointerId !== event.pointerId) return;
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      onReset();
      return;
    }
    const next = separatorKeyValue(event.key, event.shiftKey, value, min, max);
    if (next === null) return;
    // Taken here: the page's own keys (the arrows step the moment) leave it alone.
    event.preventDefault();
    onChange(next);
  };

  return (
    <div
      className={`pane-separator pane-separator-${orientation}`}
      role="separator"
      tabIndex={0}
      aria-orientation={orientation}
      aria-label={props.label}
      aria-controls={props.controls}
      aria-valuenow={Math.round(value)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      title={`${props.label}: drag, or focus and press the arrows; double-click for the default`}
      data-testid={props.testId}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      onDoubleClick={onReset}
      onKeyDown={onKeyDown}
    />
  );
}
