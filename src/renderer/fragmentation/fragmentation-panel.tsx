// Fragmentation of one device: curves on the timeline's x axis (reserved − active, the largest
// free block, internal waste, the share of reserved memory in small holes), and the figures at
// the selected moment and at the active peak, in total and per pool, stream and size class.

import { useMemo, useRef, type JSX } from 'react';
import type { XMode } from '@shared/chart/event-axis';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { FragmentationWindow } from './fragmentation-data';
import './fragmentation.css';
import { FragmentationFigures } from './fragmentation-figures';
import { FragmentationLegend } from './fragmentation-legend';
import { fullTraceMoments } from '@shared/chart/fragmentation-sampling';
import { fragmentationStatusText } from './fragmentation-status';
import { useFragmentationSeries } from '../moment/use-allocator-state';
import { useFiguresAt } from '../moment/use-figures-at';
import { useFragmentationChart } from './use-fragmentation-chart';
import { useWindowSeries } from './use-window-series';
import { deviceLabel } from '@shared/format/words';

export interface FragmentationPanelProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  stateIndex: AllocatorStateIndex | null;
  moment: number;
  smallHoleThresholdBytes: number;
  xMode: XMode;
  /** The timeline's visible window (x units of its axis), or null for the whole trace. */
  timelineWindow: (FragmentationWindow & { startEvent: number; endEvent: number }) | null;
  onMoment: (event: number) => void;
}

export function FragmentationPanel(props: FragmentationPanelProps): JSX.Element {
  const {
    snapshot,
    device,
    stateIndex,
    moment,
    smallHoleThresholdBytes,
    xMode,
    timelineWindow,
    onMoment,
  } = props;
  const peak = device.figures.active.peakEventIndex;
  const rootRef = useRef<HTMLElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const axesRef = useRef<SVGSVGElement>(null);
  const fullMoments = useMemo(() => fullTraceMoments(device), [device]);
  const full = useFragmentationSeries(stateIndex, fullMoments, smallHoleThresholdBytes);
  // A zoomed timeline gets finer samples of its window, once it stops moving.
  const windowSeries = useWindowSeries(stateIndex, device, timelineWindow, smallHoleThresholdBytes);
  const atMoment = useFiguresAt(stateIndex, moment, smallHoleThresholdBytes);
  const atPeak = useFiguresAt(stateIndex, peak, smallHoleThresholdBytes);
  const hover = useFragmentationChart(
    { root: rootRef, stage: stageRef, canvas: canvasRef, overlay: overlayRef, axes: axesRef },
    {
      device,
      mode: xMode,
      series: full.series,
      windowSeries,
      moment,
      momentFigures: atMoment.figures,
    },
    timelineWindow,
    onMoment,
  );

  const computing = stateIndex === null || full.series === null;
  return (
    <section
      ref={rootRef}
      className="frag"
      data-testid="fragmentation-panel"
      aria-label={`Fragmentation of ${deviceLabel(device.device)}`}
      data-series={computing ? 'computing' : 'ready'}
      data-threshold-bytes={String(smallHoleThresholdBytes)}
    >
      <div className="view-toolbar frag-toolbar">
        <FragmentationLegend smallHoleThresholdBytes={smallHoleThresholdBytes} />
        <span className="frag-status" aria-live="polite">
          {fragmentationStatusText(device, {
            computing,
            done: full.done,
            total: full.total,
            hoverEvent: hover?.event ?? null,
            sampleCount: full.series?.moments.length ?? 0,
            windowSampleCount: windowSeries?.moments.length ?? null,
          })}
        </span>
      </div>
      <div ref={stageRef} className="frag-stage">
        <canvas ref={canvasRef} className="frag-canvas" data-testid="fragmentation-canvas" />
        <canvas ref={overlayRef} className="frag-overlay" aria-hidden="true" />
        <svg ref={axesRef} className="frag-axes" aria-hidden="true" />
      </div>
      <FragmentationFigures
        snapshot={snapshot}
        device={device}
        moment={moment}
        peak={peak}
        momentFigures={atMoment.figures}
        peakFigures={atPeak.figures}
        momentGroups={atMoment.groups}
        peakGroups={atPeak.groups}
      />
    </section>
  );
}
