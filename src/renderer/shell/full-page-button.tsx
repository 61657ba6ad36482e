// The button that gives the view below the timeline the whole page and back (also the M key), so
// a long table or the flame graph can be read at full height.

import type { JSX } from 'react';
import { keysOf } from '../state/keyboard-shortcuts';

export function FullPageButton(props: {
  fullPage: boolean;
  onChange: (fullPage: boolean) => void;
}): JSX.Element {
  const { fullPage, onChange } = props;
  const what = fullPage ? 'Show the timeline again' : 'This view on the whole page';
  return (
    <button
      type="button"
      className="tl-button full-page-button"
      data-testid="full-page"
      aria-pressed={fullPage}
      aria-keyshortcuts={keysOf('lower-full-page')}
      title={`${what} (${keysOf('lower-full-page')})`}
      onClick={() => onChange(!fullPage)}
    >
      <span aria-hidden="true">{fullPage ? '⤓' : '⤒'}</span>
      <span className="tl-visually-hidden">{what}</span>
    </button>
  );
}
