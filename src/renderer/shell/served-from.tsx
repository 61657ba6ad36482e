// Where `allocscope serve` serves a tab's file from: a small mark in the header (the status bar,
// which says it too, is hidden in a laptop's short window), the full path in its tooltip.

import type { JSX } from 'react';

/** A tab's `servedFrom` ("gpu-box:/runs/a.pickle") in words. */
export function servedFromText(servedFrom: string): string {
  return `Served by allocscope serve from ${servedFrom}`;
}

/** The serving machine's name. */
export function servedHostOf(servedFrom: string): string {
  const cut = servedFrom.indexOf(':');
  return cut < 0 ? servedFrom : servedFrom.slice(0, cut);
}

export function ServedFromMark(props: { servedFrom: string }): JSX.Element {
  return (
    <span
      className="served-from-mark"
      data-testid="served-from-mark"
      title={servedFromText(props.servedFrom)}
    >
      from {servedHostOf(props.servedFrom)}
    </span>
  );
}
