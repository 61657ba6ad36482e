// A full-height vertical line (peaks, OOMs, the moment, the crosshair), drawn alike by the
// timeline and the fragmentation chart.

export interface VerticalMarker {
  x: number;
  color: string;
  dash: number[];
  width: number;
}

export function drawVerticalMarker(
  context: CanvasRenderingContext2D,
  marker: VerticalMarker,
  height: number,
): void {
  context.save();
  context.strokeStyle = marker.color;
  context.lineWidth = marker.width;
  context.setLineDash(marker.dash);
  const x = Math.round(marker.x) + (marker.width % 2 === 1 ? 0.5 : 0);
  context.beginPath();
  context.moveTo(x, 0);
  context.lineTo(x, height);
  context.stroke();
  context.restore();
}
