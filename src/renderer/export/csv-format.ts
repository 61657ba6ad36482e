// CSV as RFC 4180 writes it (fields separated by commas, lines ended by CRLF, the last one too, a
// field quoted when it holds a quote, comma or line break, its quotes doubled), by csv-stringify.
//
// A cell is a file's text (a frame, user_metadata): one that starts with = + - @ (or their
// full-width forms, a tab or a CR) is a formula to a spreadsheet program, which runs it when the
// CSV is opened: `=HYPERLINK(…)` sends data away, `=cmd|' /C calc'!A0` starts a program. Such a
// text cell is written with a ' in front (csv-stringify's escape_formulas, as OWASP advises):
// shown as text, never run. Numbers are written as numbers, a negative one too: the ' is only for
// text.

import { stringify, type CastingContext } from 'csv-stringify/browser/esm/sync';

export type CsvValue = string | number | boolean | null;

export interface CsvLayout {
  /** Columns (by index) whose numbers are written with this many decimals: ms as "1.000". */
  decimals?: ReadonlyMap<number, number>;
}

/** Records as CSV lines, each with its CRLF. */
export function csvRecords(
  records: readonly (readonly CsvValue[])[],
  layout: CsvLayout = {},
): string {
  if (records.length === 0) return '';
  const decimals = layout.decimals;
  return stringify(records as CsvValue[][], {
    record_delimiter: '\r\n',
    // With a record delimiter of its own, csv-stringify quotes only fields holding that whole
    // delimiter: a bare LF or CR in a frame name would split the line.
    quote_record_delimiter: true,
    eof: true,
    escape_formulas: true,
    cast: {
      number: (value: number, context: CastingContext) =>
        numberText(value, decimals?.get(context.index)),
      boolean: String,
    },
  });
}

/**
 * Integers in full (no exponent below 1e21), a fixed count of decimals where the column says,
 * never "NaN" (non-finite numbers are empty cells).
 */
function numberText(value: number, decimals: number | undefined): string {
  if (!Number.isFinite(value)) return '';
  if (decimals !== undefined) return value.toFixed(decimals);
  return Number.isInteger(value) && Math.abs(value) < 1e21
    ? BigInt(value).toString()
    : String(value);
}

/** One line with its CRLF. */
export function csvLine(fields: readonly CsvValue[], layout: CsvLayout = {}): string {
  return csvRecords([fields], layout);
}

/** One field as it stands in a line; null and non-finite numbers are empty. */
export function csvField(value: CsvValue): string {
  return csvLine([value]).slice(0, -2);
}

/** A whole document: the header and the rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return csvRecords([header, ...rows]);
}
