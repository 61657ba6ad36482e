// A picture as data: the marks of a scene in drawing order, each naming a role of the palette
// (never a colour), with its coordinates in typed arrays, so a picture of many thousands of marks
// is a few batches, not an object per mark. Two backends draw the same list: the page's canvas
// (src/renderer/canvas/canvas-scene.ts) and the exports' SVG (src/shared/render/svg-scene.ts), so
// the exported picture is the screen's. `tag` names what a mark shows (the SVG writes it as
// data-mark; legends and tests read it); null for none.

export type SceneMark<Role extends string> =
  | RectsMark<Role>
  | PolygonMark<Role>
  | PolylineMark<Role>
  | LinesMark<Role>
  | TextMark<Role>
  | BandsMark<Role>;

/** Filled rectangles: x, y, width, height per rectangle. */
export interface RectsMark<Role extends string> {
  type: 'rects';
  role: Role;
  /** Opacity on top of the role's own. */
  alpha: number;
  rects: Float64Array;
  tag: string | null;
}

/** One closed polygon, filled: x, y per point. */
export interface PolygonMark<Role extends string> {
  type: 'polygon';
  role: Role;
  points: Float64Array;
  tag: string | null;
}

/** One open line through its points (x, y per point). */
export interface PolylineMark<Role extends string> {
  type: 'polyline';
  role: Role;
  lineWidth: number;
  points: Float64Array;
  tag: string | null;
}

/** Straight lines apart: x0, y0, x1, y1 per line, one stroke style. */
export interface LinesMark<Role extends string> {
  type: 'lines';
  role: Role;
  lineWidth: number;
  /** Dash lengths; null for a solid line. */
  dash: readonly number[] | null;
  lines: Float64Array;
  tag: string | null;
}

export interface TextItem {
  text: string;
  /** Left end and alphabetic baseline. */
  x: number;
  y: number;
}

/** Text in one size and role, over a halo of `haloRole` (3 px) where given. */
export interface TextMark<Role extends string> {
  type: 'text';
  role: Role;
  haloRole: Role | null;
  sizePx: number;
  /** Bold where true (a row that stands out, as the OOM picture's request); normal otherwise. */
  bold?: boolean;
  items: readonly TextItem[];
  tag: string | null;
}

/**
 * Filled polygons of many colours (the timeline's allocation bands): polygon i's points are
 * points[2 * starts[i]] .. points[2 * starts[i + 1]] (x, y each); its colour is a band palette
 * index (chart/band-colors.ts) that each backend resolves in its theme. Drawn one after another:
 * fill, then the hatch where `hatched`, then an edge of `edgeRole` where `edged`, all at
 * `dimAlpha` where `dimmed`.
 */
export interface BandsMark<Role extends string> {
  type: 'bands';
  points: Float64Array;
  starts: Int32Array;
  colors: Int16Array;
  hatched: Uint8Array;
  edged: Uint8Array;
  dimmed: Uint8Array | null;
  dimAlpha: number;
  edgeRole: Role;
  edgeWidth: number;
  /** Tags of plain and hatched polygons. */
  tag: string;
  hatchedTag: string;
}
