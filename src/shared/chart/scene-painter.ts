// The backend a scene is drawn through: the page's canvas (src/renderer/canvas/canvas-painter.ts)
// or the exports' SVG (src/shared/render/svg-painter.ts). A picture's marks are decided once, in
// the code that calls these (e.g. segments-paint.ts), so the exported picture is the screen's.
// Marks name a role of the palette, not a colour: each backend reads the same palette entry.

export interface ScenePainter<Role extends string> {
  fillRect(x: number, y: number, width: number, height: number, role: Role): void;
  /** An outline centred on the rectangle's edges; `dash` null for a solid line. */
  strokeRect(
    x: number,
    y: number,
    width: number,
    height: number,
    role: Role,
    lineWidth: number,
    dash: readonly number[] | null,
  ): void;
}
