// Warnings are final before any document is built: `summary --json`, `report --json` and the
// app's JSON export say the same ones for every real snapshot (they once disagreed, when the
// segment history pushed its warning into the summary while the view was being built).

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSnapshot } from '@shared/analysis/snapshot-analysis';
import { buildAnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { snapshotFiguresOf } from '@shared/analyzed/device-figures';
import { buildReportDocument } from '@shared/report/report-document';
import { summaryDocumentOf } from '@shared/report/summary-report';
import { reportJson } from '../../src/renderer/export/export-files';
import { readSnapshotFile } from '../../src/cli/read-snapshot-file';
import { once } from '../support/analyzed';
import { tinySnapshot } from '../support/hostile-files';
import { realSnapshotPaths } from '../support/real-snapshots';
import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';

describe.each(realSnapshotPaths().map((path) => [basename(path), path] as const))(
  '%s',
  (_name, path) => {
    it('carries the same warnings in summary --json, report --json and the app export', async () => {
      const { model, fileName, fileBytes } = await readSnapshotFile(path);
      // summary --json: figures straight from the analysis, without the analyzed snapshot.
      const summary = summaryDocumentOf(
        snapshotFiguresOf(model, analyzeSnapshot(model), { fileName, fileBytes, top: 10 }),
      );
      // report --json and the app: the analyzed snapshot, built afresh.
      const snapshot = buildAnalyzedSnapshot(model, { fileName, fileBytes });
      const report = buildReportDocument(snapshot);
      const exported = snapshot.devices.map(
        (_device, deviceIndex) =>
          (JSON.parse(reportJson({ snapshot, deviceIndex, moment: null })) as typeof report).summary
            .warnings,
      );
      expect(report.summary.warnings).toEqual(summary.warnings);
      for (const warnings of exported) expect(warnings).toEqual(summary.warnings);
    });
  },
);

describe('a trace whose segment entries do not fit the final segments', () => {
  it('warns the same in the summary, the report and the app export', async () => {
    // A segment_free of the segment that is still there at the end: the walk back cannot undo it.
    const bytes = tinySnapshot((snapshot) => {
      const [trace] = snapshot.device_traces as Record<string, unknown>[][];
      trace!.push({ ...trace![0]!, action: 'segment_free', time_us: 2_000 });
    });
    const model = await decodeSnapshot(once(bytes));
    const file = { fileName: 'misfit.pickle', fileBytes: bytes.length };
    const summary = summaryDocumentOf(
      snapshotFiguresOf(model, analyzeSnapshot(model), { ...file, top: 10 }),
    );
    expect(summary.warnings.join('\n')).toMatch(/segment entries of the trace do not fit/);
    const snapshot = buildAnalyzedSnapshot(model, file);
    expect(buildReportDocument(snapshot).summary.warnings).toEqual(summary.warnings);
    const exported = JSON.parse(reportJson({ snapshot, deviceIndex: 0, moment: null })) as {
      summary: { warnings: string[] };
    };
    expect(exported.summary.warnings).toEqual(summary.warnings);
  });
});
