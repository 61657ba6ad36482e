// `allocscope report FILE [--json OUT.json|-] [--device N]`: the findings (fragmentation figures,
// the OOM explainer) as one `allocscope.report/1` document, or as plain text.
//   --json OUT.json  writes the document (2-space JSON) and prints one line naming the file;
//   --json -         prints the document on stdout and nothing else;
//   no --json        prints the findings as text.
// Errors throw (a UsageError for bad arguments); main.ts prints one line naming the input file
// and exits 2, with nothing on stdout.

import {
  buildDeviceReports,
  buildReportDocument,
  REPORT_SCHEMA,
} from '@shared/report/report-document';
import { jsonText } from '@shared/format/json-text';
import { terminalField } from '@shared/format/terminal-safe';
import { formatReportText } from './format-report-text';
import { deviceIndexOf, loadAnalyzedSnapshot } from './load-analyzed-snapshot';
import { writeOutput } from './run-render';
import { printOut } from './terminal-output';

export interface ReportRunOptions {
  file: string;
  /** Only this device (its ordinal); null for every device. */
  device: number | null;
  /** Where the JSON goes: a path, '-' for stdout, null for the text report on stdout. */
  jsonPath: string | null;
  /** --max-memory in bytes; null: this machine's memory. */
  maxMemory?: number | null;
  /** --memory-timeline: the trace's run's memory timeline. */
  memoryTimeline?: string | null;
}

export async function runReport(options: ReportRunOptions): Promise<void> {
  const snapshot = await loadAnalyzedSnapshot(options.file, options);
  const devices =
    options.device === null
      ? snapshot.devices.map((_device, index) => index)
      : [deviceIndexOf(snapshot, options.device)];
  if (options.jsonPath === null) {
    printOut(`${formatReportText(snapshot, buildDeviceReports(snapshot, { devices }), {})}\n`);
    return;
  }
  const document = buildReportDocument(snapshot, { devices });
  const json = `${jsonText(document)}\n`;
  if (options.jsonPath === '-') {
    printOut(json);
    return;
  }
  await writeOutput(options.jsonPath, json);
  // Like `render`: one line on stdout saying what was written (nothing else goes there).
  const ordinals = devices.map((index) => snapshot.devices[index]!.device);
  const which =
    ordinals.length === 0
      ? 'no devices'
      : `${ordinals.length === 1 ? 'device' : 'devices'} ${ordinals.join(', ')}`;
  printOut(
    `${terminalField(`${snapshot.fileName}: ${REPORT_SCHEMA} of ${which} -> ${options.jsonPath}`)}\n`,
  );
}
