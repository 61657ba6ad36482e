// The palette entries of the OOM picture's roles (oom/oom-holes-scene.ts), named once for both
// backends: the exported SVG writes them as they are, the page's canvas as CSS colours
// (src/renderer/oom/oom-holes-theme.ts). The same figure keeps its colour in every picture: the
// request is the timeline's OOM line, the largest free block the fragmentation chart's.

import type { OomHolesRole } from '../oom/oom-holes-scene';
import type { Paint, Palette } from './palette';

export function oomHolesPaints(palette: Palette): Record<OomHolesRole, Paint | string> {
  const { ui, timeline, exportedSegments, fragmentation } = palette;
  return {
    text: ui.text,
    textMuted: ui.textMuted,
    request: timeline.oom,
    deviceFree: timeline.axisLine,
    cachedFree: exportedSegments.cachedFreeBlock,
    groupOutline: exportedSegments.segmentOutline,
    largest: fragmentation.largest,
  };
}
