// The curves of the entries decoded so far, under the progress bar while a file opens: the shared
// scene (@shared/chart/decode-preview-scene.ts) on a canvas as wide as the card, drawn again at
// each report (ten a second at most: the worker's pace).

import { useLayoutEffect, useRef, type JSX } from 'react';
import type { CurvePreviewData } from '@shared/analysis/curve-preview';
import { layoutDecodePreview, type DecodePreviewRole } from '@shared/chart/decode-preview-scene';
import { countOf } from '@shared/format/plural';
import { cssColor, type Palette } from '@shared/render/palette';
import { CanvasHost } from '../canvas/canvas-host';
import { canvasFont } from '../canvas/canvas-font';
import { drawSceneMarks } from '../canvas/canvas-scene';
import { useMountedChart } from '../canvas/use-mounted-chart';

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

interface Drawn {
  data: CurvePreviewData;
  readFraction: number | null;
}

export interface DecodePreviewChartProps {
  data: CurvePreviewData;
  /** Share of the file read; null when its size is unknown. */
  readFraction: number | null;
}

export function DecodePreviewChart({ data, readFraction }: DecodePreviewChartProps): JSX.Element {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawnRef = useRef<Drawn>({ data, readFraction });
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
                drawn.data,
                drawn.readFraction,
                size.width,
                size.height,
              );
              if (picture !== null) drawSceneMarks(context, picture.marks, theme);
            },
          },
        },
        measure: () => ({ plot: { width: boxRef.current!.clientWidth, height: HEIGHT } }),
        theme: previewTheme,
        ready: () => (boxRef.current?.clientWidth ?? 0) > 0,
      }),
  );

  useLayoutEffect(() => {
    drawnRef.current = { data, readFraction };
    chartRef.current?.invalidate('plot');
  }, [chartRef, data, readFraction]);

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
}
