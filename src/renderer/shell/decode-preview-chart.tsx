// The curves of the entries decoded so far, under the progress bar while a file opens: the shared
// scene (@shared/chart/decode-preview-scene.ts) on a canvas as wide as the card, drawn again when
// the decoder sends new curves (twice a second at most), not at each progress report. Nothing
// here reads the layout but a resize: the page re-renders its progress ten times a second, and a
// read then would force a layout each time, on the cores the decoder needs.

import { memo, useLayoutEffect, useRef, type JSX } from 'react';
import { layoutDecodePreview, type DecodePreviewRole } from '@shared/chart/decode-preview-scene';
import { countOf } from '@shared/format/plural';
import { cssColor, type Palette } from '@shared/render/palette';
import { CanvasHost } from '../canvas/canvas-host';
import { canvasFont } from '../canvas/canvas-font';
import { drawSceneMarks } from '../canvas/canvas-scene';
import { useMountedChart } from '../canvas/use-mounted-chart';
import type { DecodePreview } from '../state/app-state';

const HEIGHT = 132;

interface PreviewTheme {
  roles: Record<DecodePreviewRole, string>;
  font: (sizePx: number) => string;
}

function previewTheme(palette: Palette): PreviewTheme {
  const t = palette.timeline;
  return {
    roles: {
      reservedFill: cssColor(t.overviewReserved),
      reservedLine: t.reservedLine,
      allocatedFill: t.overviewActive,
      allocatedLine: cssColor(t.activeLine),
      zero: cssColor(t.grid),
      divider: t.axisLine,
      label: palette.ui.textMuted,
    },
    font: canvasFont,
  };
}

export interface DecodePreviewChartProps {
  preview: DecodePreview;
}

export const DecodePreviewChart = memo(function DecodePreviewChart({
  preview,
}: DecodePreviewChartProps): JSX.Element {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawnRef = useRef<DecodePreview>(preview);
  // The box's width at the last resize (measure runs only then).
  const widthRef = useRef(0);
  const chartRef = useMountedChart(
    () =>
      new CanvasHost<PreviewTheme, 'plot'>({
        observe: [boxRef.current!],
        layers: {
          plot: {
            canvas: canvasRef.current!,
            draw: (context, size, theme) => {
              const drawn = drawnRef.current;
              const picture = layoutDecodePreview(
                drawn.curves,
                drawn.readFraction,
                size.width,
                size.height,
              );
              if (picture !== null) drawSceneMarks(context, picture.marks, theme);
            },
          },
        },
        measure: () => {
          widthRef.current = boxRef.current!.clientWidth;
          return { plot: { width: widthRef.current, height: HEIGHT } };
        },
        theme: previewTheme,
        ready: () => widthRef.current > 0,
      }),
  );

  useLayoutEffect(() => {
    drawnRef.current = preview;
    chartRef.current?.invalidate('plot');
  }, [chartRef, preview]);

  const data = preview.curves;
  const rows = data.lists.reduce((sum, list) => sum + list.rows, 0);
  const lists = data.lists.filter((list) => list.rows > 0).length;
  const unshown = data.listCount - data.lists.length;
  const entries = `${countOf(rows, 'trace entry', 'trace entries')} decoded`;
  return (
    <figure
      className="decode-preview"
      data-testid="decode-preview"
      data-rows={rows}
      data-lists={lists}
    >
      <figcaption className="decode-preview-caption">
        <span className="decode-preview-key decode-preview-key-reserved">memory_reserved</span>
        <span className="decode-preview-key decode-preview-key-allocated">memory_allocated</span>
        <span className="decode-preview-entries">{entries}</span>
      </figcaption>
      <div ref={boxRef} className="decode-preview-box" style={{ height: HEIGHT }}>
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`memory_allocated and memory_reserved over the ${entries}, as changes since each device's first entry`}
        />
      </div>
      <p className="decode-preview-note">
        Change since each device’s first entry
        {lists > 1 ? ' (a dashed line where the next device begins)' : ''}: the levels come with the
        last byte.
        {unshown > 0 ? ` The first ${data.lists.length} of ${data.listCount} devices shown.` : ''}
      </p>
    </figure>
  );
});
