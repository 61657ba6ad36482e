// One label for one stack, wherever it is shown: the app's table and tooltip, the CSV export, the
// OOM explainer (holders and verdict sentences), the JSON documents and the CLI's `summary` and
// `report` texts. Each is asked through the function it really uses, on every real snapshot.

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stackLabel } from '@shared/analysis/user-frame';
import { analyzeSnapshot } from '@shared/analysis/snapshot-analysis';
import { snapshotFiguresOf } from '@shared/analyzed/device-figures';
import { NO_STACK_TEXT } from '@shared/format/words';
import { deviceExplanationsOf, topFrameLabel } from '@shared/oom/oom-explainer';
import { buildDeviceReports } from '@shared/report/report-document';
import { summaryDocumentOf } from '@shared/report/summary-report';
import { formatReportText } from '../../src/cli/format-report-text';
import { formatSummaryText } from '../../src/cli/format-summary-text';
import { readSnapshotFile } from '../../src/cli/read-snapshot-file';
import { largestTableRow } from '../../src/renderer/allocations/largest-table-rows';
import {
  ALLOCATIONS_CSV_COLUMNS,
  allocationsCsvLines,
  LARGEST_TABLE_ROWS,
  planAllocationsCsv,
} from '../../src/renderer/export/allocations-csv';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPaths } from '../support/real-snapshots';

const TOP = 100;

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  it('the app’s table, the CSV, the OOM explainer, the JSON and the CLI give one label', async () => {
    const snapshot = await analyzeFile(path);

    // The CLI's summary, as `allocscope summary` builds it: from the file, not from the page.
    const { model, fileName, fileBytes } = await readSnapshotFile(path);
    const figures = snapshotFiguresOf(model, analyzeSnapshot(model), {
      fileName,
      fileBytes,
      top: TOP,
    });
    const summaryLines = formatSummaryText(figures, { exactBytes: false }).split('\n');
    const summaryJson = summaryDocumentOf(figures);

    let compared = 0;
    snapshot.devices.forEach((device, deviceIndex) => {
      // The app's table and the CSV at the active peak (the table's rows come first), row by row.
      const plan = planAllocationsCsv(device, null);
      const shown = Math.min(plan.aliveCount, LARGEST_TABLE_ROWS);
      const csvRows = parseCsv(allocationsCsvLines(snapshot, device, plan, 0, shown));
      const labelColumn = ALLOCATIONS_CSV_COLUMNS.indexOf('top_user_frame');
      for (let position = 0; position < shown; position++) {
        const row = plan.order[position]!;
        const stackId = device.allocations.stackId[row]!;
        const label = stackLabel(snapshot, stackId) ?? NO_STACK_TEXT;
        expect(largestTableRow(snapshot, device, row, true).frameLabel).toBe(label);
        expect(csvRows[position]![labelColumn] || NO_STACK_TEXT).toBe(label);
        expect(topFrameLabel(snapshot, stackId) ?? NO_STACK_TEXT).toBe(label);
        compared++;
      }

      // The CLI summary's lines and the summary JSON list the allocations alive at the peak.
      const cliDevice = figures.devices.find((candidate) => candidate.device === device.device)!;
      const jsonDevice = summaryJson.devices.find(
        (candidate) => candidate.device === device.device,
      )!;
      cliDevice.largestAtPeak.forEach((allocation, i) => {
        const label = stackLabel(snapshot, allocation.stackId) ?? NO_STACK_TEXT;
        const address = `0x${allocation.address.toString(16)}`;
        const line = summaryLines.find((candidate) => candidate.includes(`  ${address}  `));
        expect(line, address).toBeDefined();
        expect(line!.endsWith(`  ${label}`), `${line} ends with ${label}`).toBe(true);
        expect(jsonDevice.largest_allocations_at_peak[i]!.top_frame ?? NO_STACK_TEXT).toBe(label);
        compared++;
      });

      // The OOM explainer's holders (the app's OOM tab shows these) and its verdict sentences.
      const explanations = deviceExplanationsOf(snapshot, deviceIndex);
      for (const explanation of [...explanations.ooms, explanations.peak]) {
        if (explanation === null) continue;
        for (const holder of explanation.holders) {
          for (const stack of holder.stacks)
            expect(stackLabel(snapshot, stack.stackId)).toBe(holder.topFrame);
          compared++;
        }
        const first = explanation.holders[0];
        if (first !== undefined)
          expect(explanation.verdictText).toContain(first.topFrame ?? NO_STACK_TEXT);
      }
    });

    // `allocscope report`: its holders' lines end with the same labels.
    const reports = buildDeviceReports(snapshot);
    const reportText = formatReportText(snapshot, reports, {});
    for (const report of reports) {
      for (const explanation of [...report.ooms, report.whatIf]) {
        for (const holder of explanation?.holders ?? []) {
          const label = stackLabel(snapshot, holder.stackId) ?? NO_STACK_TEXT;
          expect(holder.topFrame ?? NO_STACK_TEXT).toBe(label);
          expect(
            reportText.split('\n').some((line) => line.endsWith(`  ${label}`)),
            label,
          ).toBe(true);
        }
      }
    }
    if (snapshot.devices.some((device) => device.allocations.count > 0))
      expect(compared).toBeGreaterThan(0);
  });
});

/** RFC 4180 lines (CRLF or LF ends, quoted fields with doubled quotes) → fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows;
}
