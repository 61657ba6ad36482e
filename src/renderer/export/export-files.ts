// The four exports of a snapshot page, as files: the chart (PNG, SVG) as the shared renderers
// draw it, the findings (JSON, allocscope.report/1) and the largest-allocations table (CSV).

// First: no schema may be built before zod is told the page allows no eval.
import './zod-jitless';
import { buildReportDocument } from '@shared/report/report-document';
import { renderSegmentsSvg } from '@shared/render/segments-svg';
import { renderTimelineSvg } from '@shared/render/timeline-svg';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { defaultMoment } from '@shared/analyzed/moments';
import type { ExportFile, ExportFormat } from '../api/export-saver';
import { largestAllocationsCsv } from './csv-of-largest-table';
import {
  chartFileName,
  largestAllocationsFileName,
  reportFileName,
  type ExportedView,
} from './file-names';
import { pngPixelSize, rasterizeSvg, svgSize, type PixelSize } from './svg-to-png';

export interface ExportContext {
  view: AnalyzedSnapshot;
  /** Index into view.devices. */
  deviceIndex: number;
  stateIndex: AllocatorStateIndex;
  /** The selected moment (state after this event), or null. */
  moment: number | null;
  activeView: ExportedView;
  /** The events the timeline shows; null for the whole trace. */
  timelineWindow: { startEvent: number; endEvent: number } | null;
  theme: 'light' | 'dark';
  /** The timeline's x axis as shown; the renderer's default (time where recorded) when absent. */
  xMode?: 'time' | 'event' | undefined;
  /** The chart's size on screen (css px). */
  chartSize: { width: number; height: number };
}

/** The moment the segments picture shows: the selected one, else the default moment. */
export function segmentsMoment(
  context: Pick<ExportContext, 'view' | 'deviceIndex' | 'moment'>,
): number {
  return context.moment ?? defaultMoment(context.view.devices[context.deviceIndex]!);
}

/** The chart of the current view as a standalone SVG document. */
export function chartSvg(context: ExportContext): string {
  const { view, deviceIndex, chartSize, theme } = context;
  const width = Math.max(1, Math.round(chartSize.width));
  const height = Math.max(1, Math.round(chartSize.height));
  if (context.activeView === 'segments') {
    const state = context.stateIndex.stateAt(segmentsMoment(context));
    return renderSegmentsSvg(view, deviceIndex, state, { width, theme });
  }
  return renderTimelineSvg(view, deviceIndex, {
    width,
    height,
    ...(context.timelineWindow === null
      ? {}
      : {
          startEvent: context.timelineWindow.startEvent,
          endEvent: context.timelineWindow.endEvent,
        }),
    moment: context.moment,
    theme,
    ...(context.xMode === undefined ? {} : { xMode: context.xMode }),
  });
}

/**
 * The findings of every device as allocscope.report/1, as `allocscope report --json` writes them,
 * plus the selected moment of the device on screen.
 */
export function reportJson(
  context: Pick<ExportContext, 'view' | 'deviceIndex' | 'moment'>,
): string {
  const { view, deviceIndex, moment } = context;
  const document = buildReportDocument(view, {
    ...(moment === null ? {} : { moment: { deviceIndex, event: moment } }),
  });
  return `${JSON.stringify(document, null, 2)}\n`;
}

export interface MadeExport extends ExportFile {
  /** For PNG: the pixel size and the scale used. */
  pixels?: PixelSize;
}

export async function makeExportFile(
  format: ExportFormat,
  context: ExportContext,
  pngScale: number,
): Promise<MadeExport> {
  const { view, deviceIndex } = context;
  const device = view.devices[deviceIndex]!;
  switch (format) {
    case 'svg':
      return {
        format,
        fileName: chartFileName(view.fileName, device.device, context.activeView, 'svg'),
        data: chartSvg(context),
      };
    case 'png': {
      const svg = chartSvg(context);
      const size = svgSize(svg) ?? context.chartSize;
      const pixels = pngPixelSize(size.width, size.height, pngScale);
      const blob = await rasterizeSvg(svg, pixels);
      return {
        format,
        fileName: chartFileName(view.fileName, device.device, context.activeView, 'png'),
        data: new Uint8Array(await blob.arrayBuffer()),
        pixels,
      };
    }
    case 'json':
      return { format, fileName: reportFileName(view.fileName), data: reportJson(context) };
    case 'csv':
      return {
        format,
        fileName: largestAllocationsFileName(view.fileName, device.device),
        data: largestAllocationsCsv(view, device, context.moment),
      };
  }
}
