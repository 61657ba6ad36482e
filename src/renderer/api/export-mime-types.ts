// The media type of each export format: the web build's download and Electron's save both name it.

import type { ExportFormat } from '../../preload/index.d';

export const EXPORT_MIME_TYPES: Record<ExportFormat, string> = {
  png: 'image/png',
  svg: 'image/svg+xml',
  json: 'application/json',
  csv: 'text/csv',
};
