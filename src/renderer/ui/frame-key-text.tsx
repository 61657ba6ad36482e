// A group's key in a narrow table cell: a frame keeps its file and line number in sight and gives
// up its folders first, then its function's name, then the start of its file's name
// (shared/format/frame-key-parts.ts); the cell's title holds the whole key. Any other key is cut at its end, as before.

import type { JSX } from 'react';
import { frameKeyParts } from '@shared/format/frame-key-parts';
import './frame-key-text.css';

export function FrameKeyText(props: { text: string }): JSX.Element {
  const parts = frameKeyParts(props.text);
  if (parts === null) return <>{props.text}</>;
  // The spans' text is the key itself, nothing added: the cell's textContent stays the key.
  return (
    <span className="frame-key">
      {parts.head !== '' && (
        // Right to left, so that the folders lose their start ("…systems/"), the one nearest
        // the file shown last; the isolate keeps the path's own left-to-right order.
        <span className="frame-key-head" dir="rtl">
          <bdi dir="ltr">{parts.head}</bdi>
        </span>
      )}
      {/* Cut last, and from its start, so that the line number is the last thing to go. */}
      <span className="frame-key-line" dir="rtl">
        <bdi dir="ltr">{parts.fileLine}</bdi>
      </span>
      {parts.rest !== '' && <span className="frame-key-rest">{parts.rest}</span>}
    </span>
  );
}
