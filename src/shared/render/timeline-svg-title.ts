// The exported timeline's title line: file, device, the events shown (and their time span), the
// peaks and the marked moment.

import { momentTitle } from './moment-title';
import { formatEventTick, timeTickFormatter } from '../chart/axis-format';
import type { EventAxis } from '../chart/event-axis';
import { formatBytes } from '../format/units';
import { deviceLabel } from '../format/words';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';

export function timelineSvgTitle(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  axis: EventAxis,
  startEvent: number,
  endEvent: number,
  moment: number | null,
): string {
  const pieces = [snapshot.fileName, deviceLabel(device.device)];
  if (device.traceLength === 0) pieces.push('no trace entries (final state)');
  else {
    const whole = startEvent <= 0 && endEvent >= device.traceLength;
    const events = `events ${formatEventTick(Math.max(0, startEvent))}–${formatEventTick(endEvent - 1)}`;
    pieces.push(
      whole
        ? `all ${formatEventTick(device.traceLength)} events`
        : `${events} of ${formatEventTick(device.traceLength)}`,
    );
    if (axis.mode === 'time') {
      const spanUs = axis.toX(endEvent) - axis.toX(startEvent);
      pieces.push(`${timeTickFormatter(spanUs / 4, spanUs)(spanUs)} shown`);
    }
  }
  pieces.push(
    device.figures.reservedRecorded
      ? `peak active ${formatBytes(device.figures.active.peakBytes)}, reserved ${formatBytes(device.figures.reserved.peakBytes)}`
      : `peak active ${formatBytes(device.figures.active.peakBytes)}`,
  );
  if (moment !== null) pieces.push(momentTitle(moment));
  return pieces.join(' · ');
}
