// Where exported files go. Electron: through the preload to main, which shows the Save dialog and
// writes the file. A plain browser: a download (Blob + <a download>), which the browser saves or
// asks about as it does for any download.

import type { AllocscopeBridge, ExportFormat } from '../../preload/index.d';
import { EXPORT_MIME_TYPES } from './export-mime-types';

export type { ExportFormat };

export interface ExportFile {
  readonly format: ExportFormat;
  readonly fileName: string;
  /** Text (SVG, JSON, CSV) or the PNG's bytes. */
  readonly data: string | Uint8Array;
}

export type SaveOutcome =
  /** Written (Electron) or handed to the browser as a download (web). */
  | { readonly status: 'saved'; readonly fileName: string }
  /** The user closed the Save dialog. */
  | { readonly status: 'cancelled' };

export interface ExportSaver {
  readonly host: 'electron' | 'web';
  save(file: ExportFile): Promise<SaveOutcome>;
  /** File › Export › … (Electron); a no-op subscription in a browser. */
  onMenuExport(listener: (format: ExportFormat) => void): () => void;
}

export function createExportSaver(
  bridge: AllocscopeBridge | undefined = typeof window === 'undefined'
    ? undefined
    : window.allocscope,
): ExportSaver {
  return bridge ? electronSaver(bridge) : webSaver();
}

function electronSaver(bridge: AllocscopeBridge): ExportSaver {
  return {
    host: 'electron',
    async save(file) {
      try {
        const result = await bridge.saveExport({
          format: file.format,
          fileName: file.fileName,
          data: file.data,
        });
        return result.saved
          ? { status: 'saved', fileName: result.fileName }
          : { status: 'cancelled' };
      } catch (error) {
        throw new Error(remoteErrorText(error), { cause: error });
      }
    },
    onMenuExport: (listener) => bridge.onMenuExport(listener),
  };
}

/** Electron prefixes errors from main: "Error invoking remote method 'x': Error: <message>". */
export function remoteErrorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^Error invoking remote method '[^']*': (\w*Error: )?/, '');
}

/** How long the download's URL stays valid: the browser reads it right after the click. */
const REVOKE_AFTER_MS = 60_000;

function webSaver(): ExportSaver {
  return {
    host: 'web',
    save(file) {
      const blob = new Blob([file.data as BlobPart], { type: EXPORT_MIME_TYPES[file.format] });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = file.fileName;
      link.rel = 'noopener';
      link.hidden = true;
      document.body.append(link);
      try {
        link.click();
      } finally {
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
      }
      return Promise.resolve({ status: 'saved', fileName: file.fileName });
    },
    onMenuExport: () => () => {},
  };
}
