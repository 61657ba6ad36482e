// File › Export and the page's export buttons end here: the Save dialog proposes the page's file
// name in the last folder used, and the bytes are written where the user chose. Electron is
// passed in (dialog, file system), so this is unit-tested in Node.

import { basename, extname, join } from 'node:path';
import type { SaveDialogOptions } from 'electron';
import type { ExportFormat, SaveExportRequest, SaveExportResult } from '../preload/index.d';

export interface SaveExportDependencies {
  showSaveDialog(options: SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Where the dialog opens: the folder of the last export, or Downloads. */
  defaultDirectory(): string;
  /** Told the path of each file written (to remember its folder). */
  onSaved?(path: string): void;
}

const FILTERS: Record<ExportFormat, { name: string; extensions: string[] }> = {
  png: { name: 'PNG image', extensions: ['png'] },
  svg: { name: 'SVG image', extensions: ['svg'] },
  json: { name: 'JSON document', extensions: ['json'] },
  csv: { name: 'CSV table', extensions: ['csv'] },
};

const TITLES: Record<ExportFormat, string> = {
  png: 'Export the chart as PNG',
  svg: 'Export the chart as SVG',
  json: 'Export the findings as JSON',
  csv: 'Export the largest allocations as CSV',
};

export function saveDialogOptions(
  request: SaveExportRequest,
  directory: string,
): SaveDialogOptions {
  return {
    title: TITLES[request.format],
    // basename: the schema already refuses folders; this keeps the proposal inside `directory`.
    defaultPath: join(directory, basename(request.fileName)),
    filters: [FILTERS[request.format], { name: 'All files', extensions: ['*'] }],
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  };
}

/** A name typed without any extension gets the format's (GTK's dialog does not add it). */
export function withFormatExtension(path: string, format: ExportFormat): string {
  return extname(path) === '' ? `${path}.${FILTERS[format].extensions[0]!}` : path;
}

export async function saveExportFile(
  request: SaveExportRequest,
  dependencies: SaveExportDependencies,
): Promise<SaveExportResult> {
  const options = saveDialogOptions(request, dependencies.defaultDirectory());
  const choice = await dependencies.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return { saved: false };
  const path = withFormatExtension(choice.filePath, request.format);
  try {
    await dependencies.writeFile(path, request.data);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    const reason =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'ENOSPC'
          ? 'the disk is full'
          : code === 'EROFS'
            ? 'the disk is read-only'
            : error instanceof Error
              ? error.message
              : String(error);
    throw new Error(`could not write ${basename(path)}: ${reason}`, { cause: error });
  }
  dependencies.onSaved?.(path);
  return { saved: true, fileName: basename(path) };
}
