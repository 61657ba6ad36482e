// The flame graph (icicle) of the live memory at one moment as a standalone SVG document: the
// app's "Who holds it" picture (src/renderer/holders/flame-graph.tsx) from the same tree and
// layout (@shared/holders/flame-tree, flame-layout). Used by `allocscope render --view flame`.

import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { formatBytes } from '../format/units';
import { deviceLabel } from '../format/words';
import { aliveRowsAt } from '../holders/alive-rows';
import { layoutFlame, nodeAtPath } from '../holders/flame-layout';
import { flameTree } from '../holders/flame-tree';
import type { ThemeName } from './palette';
import { renderTheme } from './render-theme';
import { escapeXml, fitText, num, svgOpen, svgText } from './svg-markup';
import { fitTitle } from './fit-title';

export interface FlameSvgOptions {
  width: number;
  height: number;
  moment: number;
  theme?: ThemeName;
  /** Keep every frame (default: the user's frames and each stack's label, as the app shows). */
  showFramework?: boolean;
  /** The allocations drawn (the page's search keeps some); default: every one alive. */
  rows?: ArrayLike<number>;
  /** The node drawn as the root (the page's zoom: steps "frameId:name"); default: the root. */
  zoomPath?: readonly string[];
}

export const FLAME_SVG_CLASS = 'allocscope-flame';

const MARGIN = { left: 16, right: 16, top: 48 } as const;
const ROW = 18;
const FONT = 11;
/** Node fills cycle through these (warm hues, readable dark text in both themes). */
const FILLS = ['#f4b183', '#f6c77d', '#f2a48a'] as const;
const ROOT_FILL = '#bccbdc';

export function renderFlameSvg(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  options: FlameSvgOptions,
): string {
  const theme = renderTheme(options.theme);
  const device = snapshot.devices[deviceIndex]!;
  const rows = options.rows ?? aliveRowsAt(device, options.moment);
  const whole = flameTree(snapshot, device, rows, {
    showFramework: options.showFramework ?? false,
  });
  const tree = nodeAtPath(whole, options.zoomPath ?? []) ?? whole;
  const plotWidth = Math.max(1, options.width - MARGIN.left - MARGIN.right);
  const rects = layoutFlame(tree, 1 / plotWidth).filter(
    (rect) => MARGIN.top + (rect.depth + 1) * ROW <= options.height,
  );
  // The figures first: a long file name is what gets cut.
  const under = tree === whole ? '' : ` under ${tree.name}`;
  const title = `${deviceLabel(device.device)} · who holds the ${formatBytes(tree.bytes)} alive${under} after event ${options.moment} (${tree === whole ? rows.length : tree.allocations} allocations) · ${snapshot.fileName}`;
  const parts = [
    svgOpen(options.width, options.height, theme.fontFamily, title),
    `<rect width="100%" height="100%" fill="${theme.background}"/>`,
    svgText(fitTitle(title, snapshot.fileName, options.width - 2 * MARGIN.left, 14.5), {
      x: MARGIN.left,
      y: 22,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
    svgText(
      'width = bytes alive at the moment; outermost frames on top; framework frames left out',
      {
        x: MARGIN.left,
        y: 38,
        fill: theme.textMuted,
        size: FONT,
      },
    ),
    `<g class="${FLAME_SVG_CLASS}" data-root-bytes="${tree.bytes}">`,
  ];
  rects.forEach((rect, i) => {
    const x = MARGIN.left + rect.x * plotWidth;
    const y = MARGIN.top + rect.depth * ROW;
    const width = rect.width * plotWidth;
    const fill = rect.depth === 0 ? ROOT_FILL : FILLS[i % FILLS.length]!;
    const label = fitText(`${rect.node.name} ${formatBytes(rect.node.bytes)}`, width - 6, FONT);
    parts.push(
      `<g data-bytes="${rect.node.bytes}"><title>${escapeXml(`${rect.node.name}: ${formatBytes(rect.node.bytes)} (${rect.node.bytes} bytes), ${rect.node.allocations} allocations`)}</title>` +
        `<rect x="${num(x)}" y="${num(y)}" width="${num(Math.max(0.5, width - 1))}" height="${ROW - 1}" fill="${fill}"/>` +
        (label === ''
          ? ''
          : svgText(label, { x: x + 3, y: y + 12.5, fill: '#1c1c1c', size: FONT })) +
        '</g>',
    );
  });
  parts.push('</g></svg>');
  return parts.join('');
}
