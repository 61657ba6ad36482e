// `allocscope render`: the app's charts as SVG (the shared renderers) and PNG (resvg), without
// Electron or a browser: the timeline, the segments at a moment, fragmentation over time and the
// OOM explainer, as the app's PNG/SVG export draws them from each tab.

import { renderCategoriesSvg } from '@shared/render/categories-svg';
import { renderFlameSvg } from '@shared/render/flame-svg';
import { renderStepsSvg } from '@shared/render/steps-svg';
import { stepsOf } from '@shared/steps/find-steps';
import { analyzeGrowth } from '@shared/steps/growth';
import { writeFile } from 'node:fs/promises';
import { fragmentationExportMoments } from '@shared/chart/fragmentation-sampling';
import { deviceExplanationsOf, explainPeak } from '@shared/oom/oom-explainer';
import type { OomExplanation } from '@shared/oom/oom-explanation';
import { renderFragmentationSvg } from '@shared/render/fragmentation-svg';
import { renderOomSvg, type OomOrdinal } from '@shared/render/oom-svg';
import { renderSegmentsSvg, segmentsBoxOf } from '@shared/render/segments-svg';
import { renderTimelineSvg } from '@shared/render/timeline-svg';
import { allocatorStateIndexOf } from '@shared/state/allocator-state';
import { fragmentationSeries } from '@shared/state/fragmentation-series';
import { smallHoleThreshold } from '@shared/state/memory-figures';
import { describeDecodeError } from '@shared/snapshot/describe-decode-error';
import {
  defaultDeviceIndex as sharedDefaultDeviceIndex,
  activePeakMoment,
  defaultMoment,
} from '@shared/analyzed/moments';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { UsageError, type MomentSpec, type RenderCliOptions } from './cli-options';
import { deviceIndexOf, loadAnalyzedSnapshot, cliDeviceName } from './load-analyzed-snapshot';
import { rasterizeSvg } from './rasterize-svg';
import { deviceLabel } from '@shared/format/words';
import { COLOR_BY_NAMES } from '@shared/holders/band-coloring';
import { DEFAULT_CATEGORY_RULES, type CategoryRules } from '@shared/holders/category-rules';
import { readRules } from './read-rules';
import { terminalField } from '@shared/format/terminal-safe';
import { requireDevices } from './no-devices';

/** The device a picture shows by default: the shared rule (first OOM, else largest peak). */
export function defaultDeviceIndex(snapshot: AnalyzedSnapshot): number {
  requireDevices(snapshot);
  return sharedDefaultDeviceIndex(snapshot.devices);
}

/** The event a moment names on this device ("the state after event e", -1 before the first). */
export function resolveMoment(device: AnalyzedDevice, moment: MomentSpec): number {
  const last = device.traceLength - 1;
  if (moment === 'final') return last;
  if (moment === 'peak') return activePeakMoment(device);
  if (moment === 'oom') {
    const oom = device.ooms[0];
    if (oom === undefined) throw new UsageError(`${cliDeviceName(device.device)} has no OOM event`);
    return oom.eventIndex;
  }
  if (moment > last) {
    throw new UsageError(
      `--moment ${moment} is past the end of ${deviceLabel(device.device)}'s trace (events -1..${last})`,
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
  // Checked before the file is read: a bad rules file fails at once.
  const rules = options.rules === null ? DEFAULT_CATEGORY_RULES : await readRules(options.rules);
  const snapshot = await loadAnalyzedSnapshot(options.file, options);
  const deviceIndex =
    options.device === null
      ? defaultDeviceIndex(snapshot)
      : deviceIndexOf(snapshot, options.device);
  const device = snapshot.devices[deviceIndex]!;
  const size = { width: options.width, height: options.height, theme: options.theme };
  const { svg, what } = renderView(snapshot, deviceIndex, options, rules);
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
  // One line, whatever the file's name and the paths hold.
  return terminalField(
    `${snapshot.fileName}: ${cliDeviceName(device.device)} ${what} -> ${written.join(', ')}`,
  );
}

/** The SVG of the chosen view and the words that say what it shows. */
export function renderView(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  options: RenderCliOptions,
  rules: CategoryRules,
): { svg: string; what: string } {
  const device = snapshot.devices[deviceIndex]!;
  const size = { width: options.width, height: options.height, theme: options.theme };
  switch (options.view) {
    case 'timeline': {
      const moment = options.moment === null ? null : resolveMoment(device, options.moment);
      return {
        svg: renderTimelineSvg(snapshot, deviceIndex, {
          ...size,
          moment,
          colorBy: options.colorBy,
          rules,
        }),
        what: `timeline (colour = ${COLOR_BY_NAMES[options.colorBy]})`,
      };
    }
    case 'fragmentation': {
      const moment = options.moment === null ? null : resolveMoment(device, options.moment);
      const series = fragmentationSeries(
        allocatorStateIndexOf(snapshot, device),
        fragmentationExportMoments(device, null, moment),
        smallHoleThreshold(device),
      );
      return {
        svg: renderFragmentationSvg(snapshot, deviceIndex, series, { ...size, moment }),
        what: 'fragmentation',
      };
    }
    case 'segments': {
      const moment =
        options.moment === null ? defaultMoment(device) : resolveMoment(device, options.moment);
      const state = allocatorStateIndexOf(snapshot, device).stateAt(moment);
      return {
        // The whole picture in the size asked for: the segments view's Fit in a box that size.
        svg: renderSegmentsSvg(snapshot, deviceIndex, state, {
          box: segmentsBoxOf(options.width, options.height, 'fit'),
          height: options.height,
          theme: options.theme,
        }),
        what:
          moment >= device.traceLength - 1
            ? 'segments at the final state'
            : moment < 0
              ? 'segments before the first event'
              : `segments after event ${moment}`,
      };
    }
    case 'flame':
    case 'categories': {
      const moment =
        options.moment === null ? defaultMoment(device) : resolveMoment(device, options.moment);
      return options.view === 'flame'
        ? {
            svg: renderFlameSvg(snapshot, deviceIndex, { ...size, moment }),
            what: `flame graph of the memory alive after event ${moment}`,
          }
        : {
            svg: renderCategoriesSvg(snapshot, deviceIndex, { ...size, moment, rules }),
            what: `live memory by category (marked: event ${moment})`,
          };
    }
    case 'steps': {
      const growth = analyzeGrowth(snapshot, device, stepsOf(snapshot, device), {
        by: 'frame',
        rules,
      });
      return {
        svg: renderStepsSvg(snapshot, deviceIndex, growth, {
          ...size,
          ...(options.moment === null ? {} : { moment: resolveMoment(device, options.moment) }),
        }),
        what: `training steps (${growth.steps.length})`,
      };
    }
    case 'oom': {
      const index = allocatorStateIndexOf(snapshot, device);
      const { explanation, ordinal } = chosenExplanation(snapshot, deviceIndex, options);
      const state = index.stateAt(explanation.event);
      return {
        svg: renderOomSvg(snapshot, deviceIndex, explanation, state, size, ordinal),
        what:
          ordinal === null
            ? `OOM explainer (what if: the active peak, event ${explanation.event})`
            : `OOM explainer (OOM ${ordinal.number} of ${ordinal.count}, event ${explanation.event})`,
      };
    }
  }
}

/**
 * The explanation `--view oom` draws: the first OOM (--moment oom or none), the OOM at
 * --moment EVENT, or the active peak as "what if" (--moment peak, or a device without an OOM).
 */
function chosenExplanation(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  options: RenderCliOptions,
): { explanation: OomExplanation; ordinal: OomOrdinal | null } {
  const device = snapshot.devices[deviceIndex]!;
  const index = allocatorStateIndexOf(snapshot, device);
  const { ooms, peak } = deviceExplanationsOf(snapshot, deviceIndex, index);
  const moment = options.moment;
  const ordinal = (i: number): OomOrdinal => ({ number: i + 1, count: ooms.length });
  if (moment === 'peak' || (ooms.length === 0 && moment === null)) {
    return { explanation: peak ?? explainPeak(snapshot, deviceIndex, index), ordinal: null };
  }
  if (moment === null || moment === 'oom') {
    if (ooms.length === 0) throw new UsageError(`${cliDeviceName(device.device)} has no OOM event`);
    return { explanation: ooms[0]!, ordinal: ordinal(0) };
  }
  const at = typeof moment === 'number' ? ooms.findIndex((oom) => oom.event === moment) : -1;
  if (at < 0) {
    const events = ooms.map((oom) => oom.event).join(', ');
    throw new UsageError(
      `--view oom --moment takes oom, peak or the event of an OOM` +
        (ooms.length === 0
          ? ` (${deviceLabel(device.device)} has none)`
          : ` (${deviceLabel(device.device)}: ${events})`),
    );
  }
  return { explanation: ooms[at]!, ordinal: ordinal(at) };
}
