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
import { NO_DEVICES_TEXT } from './no-devices';

export async function runSegments(options: SegmentsCliOptions): Promise<string> {
  const view = await loadAnalyzedSnapshot(options.file, options);
  let indexes =
    options.device === null
      ? view.devices.map((_device, index) => index)
      : [deviceIndexOf(view, options.device)];
  if (options.device === null && options.moment === 'oom') {
    // Every device at its OOM: only those that have one.
    indexes = indexes.filter((index) => view.devices[index]!.ooms.length > 0);
    if (indexes.length === 0)
      throw new UsageError(`no device of ${view.fileName} has an OOM event`);
  }
  const lines = formatFileHeader(view);
  if (indexes.length === 0) lines.push('', NO_DEVICES_TEXT);
  // Resolve every device's moment first, so a bad --moment fails before anything is printed.
  const moments = indexes.map((index) =>
    options.moment === null
      ? defaultMoment(view.devices[index]!)
      : resolveMoment(view.devices[index]!, options.moment),
  );
  indexes.forEach((index, i) => {
    const device = view.devices[index]!;
    const state = allocatorStateIndexOf(view, device).stateAt(moments[i]!);
    const threshold = smallHoleThreshold(device);
    lines.push('');
    lines.push(
      ...formatDeviceSegments(
        view,
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
