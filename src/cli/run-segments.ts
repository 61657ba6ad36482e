// `allocscope segments`: the allocator state per device at one moment (default: the moment every
// view starts at, the first OOM else the active peak; `--moment final` is the file's own
// `segments` list), as text.

import { defaultMoment } from '@shared/analyzed/moments';
import { allocatorStateIndexOf } from '@shared/state/allocator-state';
import { figuresByGroup, figuresOfState, smallHoleThreshold } from '@shared/state/memory-figures';
import { UsageError, type SegmentsCliOptions } from './cli-options';
import { formatDeviceSegments, formatFileHeader, MAP_LEGEND } from './format-segments-text';
import { deviceIndexOf, loadAnalyzedSnapshot } from './load-analyzed-snapshot';
import { resolveMoment } from './run-render';
import { joinLines } from './text-lines';
import { NO_SEGMENTS_IN_TRACE } from '@shared/format/words';
import { NO_DEVICES_TEXT } from './no-devices';
import { recordsSegments } from '@shared/analyzed/records-segments';

export async function runSegments(options: SegmentsCliOptions): Promise<string> {
  const snapshot = await loadAnalyzedSnapshot(options.file, options);
  // Nothing to show, and no moment makes it so: said as a refusal of this file (exit 2).
  if (!recordsSegments(snapshot)) throw new UsageError(NO_SEGMENTS_IN_TRACE);
  let indexes =
    options.device === null
      ? snapshot.devices.map((_device, index) => index)
      : [deviceIndexOf(snapshot, options.device)];
  if (options.device === null && options.moment === 'oom') {
    // Every device at its OOM: only those that have one.
    indexes = indexes.filter((index) => snapshot.devices[index]!.ooms.length > 0);
    if (indexes.length === 0)
      throw new UsageError(`no device of ${snapshot.fileName} has an OOM event`);
  }
  const lines = formatFileHeader(snapshot);
  if (indexes.length === 0) lines.push('', NO_DEVICES_TEXT);
  // Resolve every device's moment first, so a bad --moment fails before anything is printed.
  const moments = indexes.map((index) =>
    options.moment === null
      ? defaultMoment(snapshot.devices[index]!)
      : resolveMoment(snapshot.devices[index]!, options.moment),
  );
  indexes.forEach((index, i) => {
    const device = snapshot.devices[index]!;
    const state = allocatorStateIndexOf(snapshot, device).stateAt(moments[i]!);
    const threshold = smallHoleThreshold(device);
    lines.push('');
    lines.push(
      ...formatDeviceSegments(
        snapshot,
        device,
        state,
        figuresOfState(state, threshold),
        figuresByGroup(state, threshold),
        { exactBytes: options.bytes },
      ),
    );
  });
  if (indexes.length > 0) lines.push('', MAP_LEGEND);
  return joinLines(lines);
}
