// The exports most views share (the findings as JSON, every allocation as CSV, the pictures the
// shared renderers draw), and the file a view's export makes in a format: what the export bar
// runs for the view shown (its registry entry's exports).

import { deviceLabel } from '@shared/format/words';
import type { ExportFormat } from '../api/export-saver';
import { buildAllocationsCsv } from './allocations-csv';
import { chartSvg, reportJson, type ExportContext, type MadeExport } from './export-files';
import {
  allocationsFileName,
  chartFileName,
  reportFileName,
  type ExportedView,
} from './file-names';
import type { DataExport, LowerViewExports, PictureExport } from './lower-view-entry';
import { pngPixelSize, rasterizeSvg, svgSize } from './svg-to-png';

/** The findings of every device as allocscope.report/1 (what `allocscope report --json` writes). */
export const REPORT_JSON: DataExport = {
  title: () => 'Export the findings of every device as JSON (allocscope.report/1)',
  fileName: (context) => reportFileName(context.snapshot.fileName),
  data: (context) => Promise.resolve(reportJson(context)),
};

/** Every allocation of the device, which are alive at the moment, exact bytes, times. */
export const ALLOCATIONS_CSV: DataExport = {
  title: (context) =>
    `Export every allocation of ${deviceLabel(context.snapshot.devices[context.deviceIndex]!.device)} as CSV (which are alive at the moment, exact bytes, times)`,
  fileName: (context) =>
    allocationsFileName(
      context.snapshot.fileName,
      context.snapshot.devices[context.deviceIndex]!.device,
      context.moment,
    ),
  data: (context) =>
    buildAllocationsCsv(
      context.snapshot,
      context.snapshot.devices[context.deviceIndex]!,
      context.moment,
      context.slicing,
    ),
};

/** A picture the shared renderers draw (export-files.ts, chartSvg), as the view shows it. */
export function chartPicture(name: ExportedView, words: string, element: string): PictureExport {
  return { name, words, element, svg: (context) => chartSvg({ ...context, activeView: name }) };
}

/** The timeline, as shown: what the table views (Allocations) export as their picture. */
export const TIMELINE_PICTURE = chartPicture(
  'timeline',
  'the timeline',
  '[data-testid="timeline"]',
);

/** The formats a view exports, in the bar's order: its picture's, then its data's. */
export function exportFormatsOf(exports: LowerViewExports): ExportFormat[] {
  return [
    ...(exports.picture === null ? [] : (['png', 'svg'] as const)),
    ...(exports.json === null ? [] : (['json'] as const)),
    ...(exports.csv === null ? [] : (['csv'] as const)),
  ];
}

/** What a button of the bar says it exports. */
export function exportTitle(
  exports: LowerViewExports,
  format: ExportFormat,
  context: ExportContext,
  pngScale: number,
): string {
  switch (format) {
    case 'png':
      return `Export ${exports.picture?.words ?? 'the view'} as PNG (${pngScale}×)`;
    case 'svg':
      return `Export ${exports.picture?.words ?? 'the view'} as SVG`;
    case 'json':
      return exports.json?.title(context) ?? '';
    case 'csv':
      return exports.csv?.title(context) ?? '';
  }
}

/** The file a view's export makes in `format` (which the view declares). */
export async function makeViewExportFile(
  exports: LowerViewExports,
  format: ExportFormat,
  context: ExportContext,
  pngScale: number,
): Promise<MadeExport> {
  const device = context.snapshot.devices[context.deviceIndex]!;
  const fileName = context.snapshot.fileName;
  switch (format) {
    case 'svg':
    case 'png': {
      const picture = exports.picture;
      if (picture === null) throw new Error('this view exports no picture');
      const svg = await picture.svg(context);
      if (format === 'svg')
        return {
          format,
          fileName: chartFileName(fileName, device.device, picture.name, 'svg'),
          data: svg,
        };
      const size = svgSize(svg) ?? context.chartSize;
      const pixels = pngPixelSize(size.width, size.height, pngScale);
      const blob = await rasterizeSvg(svg, pixels);
      return {
        format,
        fileName: chartFileName(fileName, device.device, picture.name, 'png'),
        data: new Uint8Array(await blob.arrayBuffer()),
        pixels,
      };
    }
    case 'json':
    case 'csv': {
      const data = exports[format];
      if (data === null) throw new Error(`this view exports no ${format.toUpperCase()}`);
      return { format, fileName: data.fileName(context), data: await data.data(context) };
    }
  }
}
