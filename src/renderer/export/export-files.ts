// The pictures the shared renderers draw for the lower views (the timeline, the segments, the
// fragmentation chart, the OOM explainer; Steps and Compare hand over their own), and the findings
// of every device (JSON, allocscope.report/1). The views' registry entries name which they export
// (view-exports.ts makes the files).

// First: no schema may be built before zod is told the page allows no eval.
import './zod-jitless';
import { jsonText } from '@shared/format/json-text';
import { buildReportDocument } from '@shared/report/report-document';
import { fragmentationExportMoments } from '@shared/chart/fragmentation-sampling';
import { deviceExplanationsOf } from '@shared/oom/oom-explainer';
import { renderFragmentationSvg } from '@shared/render/fragmentation-svg';
import { renderOomSvg } from '@shared/render/oom-svg';
import { renderSegmentsSvg } from '@shared/render/segments-svg';
import { renderTimelineSvg } from '@shared/render/timeline-svg';
import { DEFAULT_SEGMENTS_SCALE, type SegmentsBox } from '@shared/chart/segments-scene';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import type { TabViewState, ViewPicture } from '../state/tab-store';
import type { ColorBy } from '@shared/holders/band-coloring';
import { smallHoleThreshold } from '@shared/state/memory-figures';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { defaultMoment } from '@shared/analyzed/moments';
import type { ExportFile } from '../api/export-saver';
import { currentCategoryRules } from '../holders/category-rules-setting';
import { PAGE_SLICING, type Slicing } from './slicing';
import { slicedFragmentationSeries } from './fragmentation-export';
import type { ExportedView } from './file-names';
import type { PixelSize } from './svg-to-png';

export type { ViewPicture } from '../state/tab-store';

/** The least size of the Steps and Compare pictures (their panes are short; css px). */
export const VIEW_PICTURE_MIN = {
  steps: { width: 900, height: 520 },
  compare: { width: 900, height: 420 },
} as const;

export interface ExportContext {
  snapshot: AnalyzedSnapshot;
  /** Index into snapshot.devices. */
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
  /** The timeline's colouring as shown (the tab's store); by stack when absent. */
  colorBy?: ColorBy;
  /** Every choice on the page (the tab's store) when the export ran: what the views show. */
  tab?: TabViewState;
  /** The chart's size on screen (css px). */
  chartSize: { width: number; height: number };
  /** The OOM tab: the event of the OOM it shows (null: the first, or the peak's "what if"). */
  oomEvent?: number | null;
  /** How long work may hold the page between pauses (tests pass their own). */
  slicing?: Slicing;
  /** The Steps or Compare view's own picture, when that view is shown. */
  viewPicture?: ViewPicture | null;
  /**
   * The box and scale the page's segments picture is laid out for (../segments/segments-box.ts
   * reads it off the page), so the export is the picture on screen; absent: the chart's width,
   * SEGMENTS_FALLBACK_BOX_HEIGHT tall, at the view's default scale.
   */
  segmentsBox?: SegmentsBox | null;
}

/**
 * The height of the box the segments picture is laid out for when the page's box is not known:
 * a view's height, and not the chart's, which a status line below the buttons changes between
 * two exports.
 */
export const SEGMENTS_FALLBACK_BOX_HEIGHT = 400;

/** The least height of an exported fragmentation chart (css px). */
export const FRAGMENTATION_MIN_HEIGHT = 400;

/** The moment the segments picture shows: the selected one, else the default moment. */
export function segmentsMoment(
  context: Pick<ExportContext, 'snapshot' | 'deviceIndex' | 'moment'>,
): number {
  return context.moment ?? defaultMoment(context.snapshot.devices[context.deviceIndex]!);
}

/** The chart of the current view as a standalone SVG document. */
export async function chartSvg(context: ExportContext): Promise<string> {
  const { snapshot, deviceIndex, chartSize, theme } = context;
  const width = Math.max(1, Math.round(chartSize.width));
  const height = Math.max(1, Math.round(chartSize.height));
  const window = context.timelineWindow;
  const xMode = context.xMode === undefined ? {} : { xMode: context.xMode };
  switch (context.activeView) {
    case 'steps':
    case 'compare': {
      const picture = context.viewPicture;
      if (!picture) throw new Error(`the ${context.activeView} view has nothing to draw yet`);
      const least = VIEW_PICTURE_MIN[context.activeView];
      return picture(
        { width: Math.max(width, least.width), height: Math.max(height, least.height) },
        theme,
      );
    }
    case 'segments': {
      const state = context.stateIndex.stateAt(segmentsMoment(context));
      const box = context.segmentsBox ?? {
        width,
        height: SEGMENTS_FALLBACK_BOX_HEIGHT,
        scale: DEFAULT_SEGMENTS_SCALE,
      };
      return renderSegmentsSvg(snapshot, deviceIndex, state, { box, theme });
    }
    case 'fragmentation': {
      const device = snapshot.devices[deviceIndex]!;
      const series = await slicedFragmentationSeries(
        context.stateIndex,
        fragmentationExportMoments(device, window, context.moment),
        smallHoleThreshold(device),
        context.slicing ?? PAGE_SLICING,
      );
      return renderFragmentationSvg(snapshot, deviceIndex, series, {
        width,
        // Its margins (title, figures, axis, legend) need room: a short pane still exports a
        // readable chart.
        height: Math.max(height, FRAGMENTATION_MIN_HEIGHT),
        ...(window === null ? {} : { startEvent: window.startEvent, endEvent: window.endEvent }),
        moment: context.moment,
        theme,
        ...xMode,
      });
    }
    case 'oom': {
      const { ooms, peak } = deviceExplanationsOf(snapshot, deviceIndex, context.stateIndex);
      const shown = Math.max(
        0,
        ooms.findIndex((oom) => oom.event === context.oomEvent),
      );
      const explanation = ooms[shown] ?? peak!;
      const state = context.stateIndex.stateAt(explanation.event);
      const ordinal = ooms.length === 0 ? null : { number: shown + 1, count: ooms.length };
      return renderOomSvg(snapshot, deviceIndex, explanation, state, { width, theme }, ordinal);
    }
    case 'timeline':
      return renderTimelineSvg(snapshot, deviceIndex, {
        width,
        height,
        ...(window === null ? {} : { startEvent: window.startEvent, endEvent: window.endEvent }),
        moment: context.moment,
        theme,
        ...xMode,
        // The timeline's "colour by" choice as shown, and the category rules it colours by
        // category with.
        colorBy: context.colorBy ?? 'stack',
        rules: currentCategoryRules(),
      });
  }
}

/**
 * The findings of every device as allocscope.report/1, as `allocscope report --json` writes them,
 * plus the selected moment of the device on screen.
 */
export function reportJson(
  context: Pick<ExportContext, 'snapshot' | 'deviceIndex' | 'moment'>,
): string {
  const { snapshot, deviceIndex, moment } = context;
  const document = buildReportDocument(snapshot, {
    ...(moment === null ? {} : { moment: { deviceIndex, event: moment } }),
  });
  return `${jsonText(document)}\n`;
}

export interface MadeExport extends ExportFile {
  /** For PNG: the pixel size and the scale used. */
  pixels?: PixelSize;
}
