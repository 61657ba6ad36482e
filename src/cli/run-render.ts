// `allocscope render`: the app's charts as SVG (the shared renderers) and PNG (resvg), without
// Electron or a browser.

import { writeFile } from 'node:fs/promises';
import { renderSegmentsSvg } from '@shared/render/segments-svg';
import { renderTimelineSvg } from '@shared/render/timeline-svg';
import { allocatorStateIndexOf } from '@shared/state/allocator-state';
import { describeDecodeError } from '@shared/snapshot/describe-decode-error';
import {
  defaultDeviceIndex as sharedDefaultDeviceIndex,
  defaultMoment,
} from '@shared/analyzed/moments';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { UsageError, type MomentSpec, type RenderCliOptions } from './cli-options';
import { deviceIndexOf, loadAnalyzedSnapshot } from './load-analyzed-snapshot';
import { rasterizeSvg } from './rasterize-svg';

/** The device a picture shows by default: the shared rule (first OOM, else largest peak). */
export function defaultDeviceIndex(view: AnalyzedSnapshot): number {
  if (view.devices.length === 0) throw new UsageError(`${view.fileName} has no devices`);
  return sharedDefaultDeviceIndex(view.devices);
}

/** The event a moment names on this device ("the state after event e", -1 before the first). */
export function resolveMoment(device: AnalyzedDevice, moment: MomentSpec): number {
  const last = device.traceLength - 1;
  if (moment === 'final') return last;
  if (moment === 'peak') return Math.min(last, device.figures.active.peakEventIndex);
  if (moment === 'oom') {
    const oom = device.ooms[0];
    if (oom === undefined) throw new UsageError(`device ${device.device} has no OOM event`);
    return oom.eventIndex;
  }
  if (moment > last) {
    throw new UsageError(
      `--moment ${moment} is past the end of device ${device.device}'s trace (events -1..${last})`,
    );
  }
  return moment;
}

export async function writeOutput(path: string, data: string | Uint8Array): Promise<void> {
  try {
    await writeFile(path, data);
  } catch (error) {
    throw new UsageError(`cannot write ${path}: ${describeDecodeError(error)}`);
  }
}

export async function runRender(options: RenderCliOptions): Promise<string> {
  const view = await loadAnalyzedSnapshot(options.file);
  const deviceIndex =
    options.device === null ? defaultDeviceIndex(view) : deviceIndexOf(view, options.device);
  const device = view.devices[deviceIndex]!;
  const size = { width: options.width, height: options.height, theme: options.theme };
  let svg: string;
  let what: string;
  if (options.view === 'timeline') {
    const moment = options.moment === null ? null : resolveMoment(device, options.moment);
    svg = renderTimelineSvg(view, deviceIndex, { ...size, moment });
    what = 'timeline';
  } else {
    const moment =
      options.moment === null ? defaultMoment(device) : resolveMoment(device, options.moment);
    const state = allocatorStateIndexOf(view, device).stateAt(moment);
    svg = renderSegmentsSvg(view, deviceIndex, state, size);
    what =
      moment >= device.traceLength - 1
        ? 'segments at the final state'
        : moment < 0
          ? 'segments before the first event'
          : `segments after event ${moment}`;
  }
  const written: string[] = [];
  if (options.svg !== null) {
    await writeOutput(options.svg, svg);
    written.push(`${options.svg} (SVG ${options.width}x${options.height})`);
  }
  if (options.png !== null) {
    const image = rasterizeSvg(svg, { ...size, scale: options.scale });
    await writeOutput(options.png, image.png);
    written.push(`${options.png} (PNG ${image.width}x${image.height})`);
  }
  return `${view.fileName}: device ${device.device} ${what} -> ${written.join(', ')}`;
}
