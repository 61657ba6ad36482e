// Zoom and pan as pure functions on an x domain [x0, x1] within bounds: the wheel, drag,
// keyboard and the overview brush all end up here, so the rules (never leave the data, never
// zoom past the smallest span) hold however the user moves.

export interface XDomain {
  x0: number;
  x1: number;
}

export interface XBounds {
  min: number;
  max: number;
  /** Narrowest span allowed. */
  minSpan: number;
}

/** The domain moved and narrowed into bounds: spans above the full range become the full range. */
export function clampDomain(domain: XDomain, bounds: XBounds): XDomain {
  const full = bounds.max - bounds.min;
  let span = domain.x1 - domain.x0;
  if (!(span > 0) || !Number.isFinite(span)) span = full;
  span = Math.min(full, Math.max(Math.min(bounds.minSpan, full), span));
  let x0 = Number.isFinite(domain.x0) ? domain.x0 : bounds.min;
  if (x0 < bounds.min) x0 = bounds.min;
  if (x0 + span > bounds.max) x0 = bounds.max - span;
  return { x0, x1: x0 + span };
}

/**
 * Zoom by `factor` (> 1 zooms in) keeping the point at `anchor` (x units) where it is on screen.
 * At the limits the anchor may move so the domain stays inside the bounds.
 */
export function zoomAround(
  domain: XDomain,
  anchor: number,
  factor: number,
  bounds: XBounds,
): XDomain {
  const span = domain.x1 - domain.x0;
  if (!(factor > 0) || !(span > 0)) return clampDomain(domain, bounds);
  const full = bounds.max - bounds.min;
  const newSpan = Math.min(full, Math.max(Math.min(bounds.minSpan, full), span / factor));
  const ratio = (anchor - domain.x0) / span;
  const x0 = anchor - ratio * newSpan;
  return clampDomain({ x0, x1: x0 + newSpan }, bounds);
}

/** Shift by `delta` x units (positive moves the view right, towards later events). */
export function panBy(domain: XDomain, delta: number, bounds: XBounds): XDomain {
  return clampDomain({ x0: domain.x0 + delta, x1: domain.x1 + delta }, bounds);
}

/** Zoom factor for a wheel event: exponential in the scroll distance, so zooming feels linear. */
export function wheelZoomFactor(deltaY: number, deltaMode: number, pinch: boolean): number {
  // Lines and pages (Firefox, some mice) count as more pixels; a trackpad pinch arrives as a
  // ctrl+wheel with small deltas, so it is amplified to match.
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  const sensitivity = pinch ? 0.01 : 0.002;
  return Math.exp(-pixels * sensitivity);
}

export function domainsEqual(a: XDomain, b: XDomain, tolerance = 1e-9): boolean {
  const scale = Math.max(1, Math.abs(a.x1 - a.x0));
  return Math.abs(a.x0 - b.x0) <= tolerance * scale && Math.abs(a.x1 - b.x1) <= tolerance * scale;
}
