// A labelled byte figure, "reserved 3.1 GiB", with the exact count on hover and in data-bytes.

import type { JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';

export function BytesFigure(props: { label: string; bytes: number }): JSX.Element {
  return (
    <span title={`${formatExactBytes(props.bytes)} bytes`} data-bytes={String(props.bytes)}>
      {props.label} <strong>{formatBytes(props.bytes)}</strong>
    </span>
  );
}
