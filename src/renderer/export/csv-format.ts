// CSV as RFC 4180 writes it: fields separated by commas, lines ended by CRLF (the last one too),
// a field quoted when it holds a quote, comma or line break, its quotes doubled.

export type CsvValue = string | number | boolean | null;

/** One field; null and non-finite numbers are empty, integers are written in full. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  const text =
    typeof value === 'number'
      ? numberText(value)
      : typeof value === 'boolean'
        ? String(value)
        : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Integers in full (no exponent below 1e21), never "NaN". */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  return Number.isInteger(value) && Math.abs(value) < 1e21
    ? BigInt(value).toString()
    : String(value);
}

/** One line with its CRLF. */
export function csvLine(fields: readonly CsvValue[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) line += (i === 0 ? '' : ',') + csvField(fields[i]!);
  return `${line}\r\n`;
}

/** A whole document: the header and the rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map(csvLine).join('');
}
