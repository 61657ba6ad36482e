// The OOM view's picture of the request against the largest free block of each pool, stream and
// segment size: the scene the export draws (@shared/oom/oom-holes-scene.ts), on a canvas as wide
// as the panel. Its height follows the rows, not the width.

import { useLayoutEffect, useMemo, useRef, type JSX } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { OomExplanation } from '@shared/oom/oom-explanation';
import {
  layoutOomHoles,
  oomHoleRowsOfState,
  oomHolesHeading,
  oomHolesHeight,
  type OomHoleRow,
} from '@shared/oom/oom-holes-scene';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import { CanvasHost } from '../canvas/canvas-host';
import { useMountedChart } from '../canvas/use-mounted-chart';
import { drawOomHoles } from './oom-holes-draw';
import { oomHolesTheme, type OomHolesTheme } from './oom-holes-theme';

export interface OomHolesChartProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  explanation: OomExplanation;
  stateIndex: AllocatorStateIndex;
}

interface Drawn {
  explanation: OomExplanation;
  rows: readonly OomHoleRow[];
}

export function OomHolesChart(props: OomHolesChartProps): JSX.Element {
  const { snapshot, device, explanation, stateIndex } = props;
  const rows = useMemo(
    () => oomHoleRowsOfState(snapshot, device, explanation, stateIndex.stateAt(explanation.event)),
    [snapshot, device, explanation, stateIndex],
  );
  const height = oomHolesHeight(explanation, rows.length);
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawnRef = useRef<Drawn>({ explanation, rows });

  const chartRef = useMountedChart(
    () =>
      new CanvasHost<OomHolesTheme, 'plot'>({
        observe: [boxRef.current!],
        layers: {
          plot: {
            canvas: canvasRef.current!,
            draw: (context, size, theme) => {
              const { explanation: e, rows: drawnRows } = drawnRef.current;
              drawOomHoles(context, layoutOomHoles(e, drawnRows, size.width), theme);
            },
          },
        },
        measure: () => {
          const { explanation: e, rows: drawnRows } = drawnRef.current;
          return {
            plot: {
              width: boxRef.current!.clientWidth,
              height: oomHolesHeight(e, drawnRows.length),
            },
          };
        },
        theme: oomHolesTheme,
        ready: () => (boxRef.current?.clientWidth ?? 0) > 0,
      }),
  );

  useLayoutEffect(() => {
    drawnRef.current = { explanation, rows };
    chartRef.current?.invalidate('plot');
  }, [chartRef, explanation, rows]);

  const request = rows[0];
  const summary =
    request === undefined
      ? ''
      : `${oomHolesHeading(explanation)}: the largest free block there is ${formatBytes(request.largestFreeBytes)}.`;
  return (
    <div className="oom-holes">
      <h4 className="oom-subtitle">{oomHolesHeading(explanation)}</h4>
      <div
        ref={boxRef}
        className="oom-holes-box"
        style={{ height }}
        data-testid="oom-holes"
        data-rows={rows.length}
        data-request-group-largest={request?.largestFreeBytes}
        title={
          request === undefined
            ? undefined
            : `largest free block where the request goes: ${formatExactBytes(request.largestFreeBytes)} B`
        }
      >
        <canvas ref={canvasRef} role="img" aria-label={summary} />
      </div>
    </div>
  );
}
