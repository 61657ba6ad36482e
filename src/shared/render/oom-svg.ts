// The OOM explainer as a standalone SVG document: what the app's OOM tab shows
// (src/renderer/oom/oom-explainer-panel.tsx) for one explanation (@shared/oom): the verdict in
// plain words, the figures the request met, the request against the largest free block of each
// pool and stream, the live allocations by top user frame, and the segments at that moment.
// Used by `allocscope render --view oom` and the app's export of the OOM tab.

import { eventTimeUs } from '../analyzed/device-times';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { formatEventTick } from '../chart/axis-format';
import { formatBytes, formatDurationUs } from '../format/units';
import { deviceLabel } from '../format/words';
import type { OomExplanation } from '../oom/oom-explanation';
import type { AllocatorState } from '../state/allocator-state';
import { smallHoleThreshold } from '../state/memory-figures';
import { oomFigures, oomFiguresMarkup } from './oom-svg-figures';
import { oomHoldersMarkup } from './oom-svg-holders';
import { oomHoleRowsOfState } from '../oom/oom-holes-scene';
import { oomHolesMarkup } from './oom-svg-holes';
import { oomSegmentsMarkup } from './oom-svg-segments';
import { fillOf, renderTheme, type ThemeName } from './render-theme';
import { num, svgOpen, svgText } from './svg-markup';
import { wrapText } from './svg-wrap';
import { fitTitle } from './fit-title';

export interface OomSvgOptions {
  width: number;
  /** Height of the document; when omitted, as tall as its sections need. */
  height?: number;
  theme?: ThemeName;
}

/** Which of the device's OOMs the explanation is (1-based), when it is one. */
export interface OomOrdinal {
  number: number;
  count: number;
}

/** The class of the picture's group: what tells this picture from the app's other exports. */
export const OOM_SVG_CLASS = 'allocscope-oom';

/** Margin around the explainer's sections. */
const OOM_SVG_PAD = 16;

const VERDICT_SIZE = 13;
const VERDICT_LINE = 18;
const SECTION_GAP = 14;

/** `state`: the allocator state after explanation.event (what the request met). */
export function renderOomSvg(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  explanation: OomExplanation,
  state: AllocatorState,
  options: OomSvgOptions,
  ordinal: OomOrdinal | null = null,
): string {
  const device = snapshot.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const pad = OOM_SVG_PAD;
  const width = Math.max(480, options.width);
  const inner = width - 2 * pad;
  const isWhatIf = explanation.verdict === 'what-if';
  const title = oomSvgTitle(snapshot, device, explanation, ordinal);
  const parts: string[] = [];
  let y = 0;

  parts.push(
    svgText(fitTitle(title, snapshot.fileName, inner, 13), {
      x: pad,
      y: 20,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
  );
  y = 32;

  // The verdict, as a callout.
  const lines = wrapText(explanation.verdictText, inner - 14, VERDICT_SIZE);
  const calloutHeight = lines.length * VERDICT_LINE + 10;
  parts.push(
    `<g class="oom-verdict" data-verdict="${explanation.verdict}">`,
    `<rect x="${num(pad)}" y="${num(y)}" width="4" height="${num(calloutHeight)}" fill="${isWhatIf ? theme.moment : theme.oom}"/>`,
    ...lines.map((line, i) =>
      svgText(line, {
        x: pad + 12,
        y: y + 18 + i * VERDICT_LINE,
        fill: theme.text,
        size: VERDICT_SIZE,
      }),
    ),
    '</g>',
  );
  y += calloutHeight + SECTION_GAP;

  const figures = oomFiguresMarkup(oomFigures(explanation), pad, y, inner, theme);
  parts.push(figures.markup);
  y += figures.height + SECTION_GAP;

  const threshold = smallHoleThreshold(device);
  const rows = oomHoleRowsOfState(snapshot, device, explanation, state);
  const holes = oomHolesMarkup(explanation, rows, pad, y, inner, theme);
  parts.push(holes.markup);
  y += holes.height + SECTION_GAP;

  const holders = oomHoldersMarkup(explanation.holders, isWhatIf, pad, y, inner, theme);
  parts.push(holders.markup);
  y += holders.height + SECTION_GAP;

  const heading = `Segments ${isWhatIf ? 'at the active peak' : 'when it failed'} (${stateWords(device, explanation.event)})`;
  const segments = oomSegmentsMarkup(
    snapshot,
    state,
    threshold,
    heading,
    y,
    width,
    options.height === undefined ? undefined : Math.max(120, options.height - y),
    theme,
    pad,
  );
  parts.push(segments.markup);
  y += segments.height;

  const height = options.height ?? Math.ceil(y + pad);
  return [
    svgOpen(width, height, theme.fontFamily, title),
    `<g class="${OOM_SVG_CLASS}">`,
    `<rect width="100%" height="100%" ${fillOf(theme.background)}/>`,
    ...parts,
    '</g>',
    '</svg>',
  ].join('\n');
}

/** "file · device 0 · out of memory (1 of 2): 1.2 GiB requested after event 5,678 · 1.25 s". */
export function oomSvgTitle(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  e: OomExplanation,
  ordinal: OomOrdinal | null,
): string {
  const pieces = [snapshot.fileName, deviceLabel(device.device)];
  const when = eventWords(device, e);
  if (e.verdict === 'what-if')
    pieces.push(`no OOM in this trace: what if, at the active peak (${when})`);
  else {
    const which =
      ordinal !== null && ordinal.count > 1 ? ` (${ordinal.number} of ${ordinal.count})` : '';
    const request = e.requestedBytes === null ? '' : `: ${formatBytes(e.requestedBytes)} requested`;
    pieces.push(`out of memory${which}${request} at ${when}`);
  }
  return pieces.join(' · ');
}

/** "event 5,678 · 1.25 s" (time from the first event, as the app shows it). */
function eventWords(device: AnalyzedDevice, e: OomExplanation): string {
  if (e.event < 0) return 'before the first event';
  const first = eventTimeUs(device, 0);
  const index = `event ${formatEventTick(e.event)}`;
  return e.timeUs === null || first === null
    ? index
    : `${index} · ${formatDurationUs(e.timeUs - first)}`;
}

function stateWords(device: AnalyzedDevice, event: number): string {
  if (event < 0) return 'the state before the first event';
  return `the state after event ${formatEventTick(event)} of ${formatEventTick(device.traceLength)}`;
}
