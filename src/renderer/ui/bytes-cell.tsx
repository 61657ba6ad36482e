// A table cell of bytes: human units, the exact count on hover (tables of steps, ranks, changes).

import type { JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';

export function BytesCell(props: { bytes: number }): JSX.Element {
  const bytes = Math.round(props.bytes);
  return (
    <td className="numeric" title={`${formatExactBytes(bytes)} bytes`}>
      {formatBytes(bytes)}
    </td>
  );
}
