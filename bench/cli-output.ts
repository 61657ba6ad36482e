// Reads what `allocscope summary FILE --json --timings` prints: the summary document on stdout
// (checked against its schema name) and one `allocscope-timings {...}` line on stderr.

export const SUMMARY_SCHEMA = 'allocscope.summary/1';

export interface CliTimings {
  readonly read_decode_ms: number;
  readonly analysis_ms: number;
  readonly total_ms: number;
  readonly max_rss_bytes: number;
  readonly input_bytes: number;
  /** CPU of the whole process (ms). */
  readonly cpu_ms?: number;
  /** Threads that decoded the file (--jobs; 1 when one did). */
  readonly decode_threads?: number;
  /** Each decoding thread's CPU (ms), the main thread first. */
  readonly decode_thread_cpu_ms?: number[];
}

const TIMINGS_LINE = /^allocscope-timings (\{.*\})\s*$/m;
const TIMING_FIELDS = [
  'read_decode_ms',
  'analysis_ms',
  'total_ms',
  'max_rss_bytes',
  'input_bytes',
] as const;

export function parseTimings(stderr: string): CliTimings {
  const match = TIMINGS_LINE.exec(stderr);
  if (match === null) throw new Error('no "allocscope-timings {...}" line on stderr');
  const parsed: unknown = JSON.parse(match[1]!);
  if (typeof parsed !== 'object' || parsed === null)
    throw new Error('allocscope-timings is not an object');
  const record = parsed as Record<string, unknown>;
  for (const field of TIMING_FIELDS) {
    if (typeof record[field] !== 'number' || !Number.isFinite(record[field])) {
      throw new Error(`allocscope-timings: "${field}" is not a number`);
    }
  }
  return record as unknown as CliTimings;
}

export interface SummaryCheck {
  readonly devices: number;
  readonly traceEntries: number;
}

/** Parses the summary and checks its schema; returns a few figures worth printing. */
export function checkSummary(stdout: string): SummaryCheck {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch (error) {
    throw new Error(`stdout is not JSON: ${(error as Error).message}`);
  }
  const record = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  if (record['schema'] !== SUMMARY_SCHEMA) {
    throw new Error(`schema is ${JSON.stringify(record['schema'])}, expected "${SUMMARY_SCHEMA}"`);
  }
  const devices = Array.isArray(record['devices']) ? (record['devices'] as unknown[]) : [];
  let traceEntries = 0;
  for (const device of devices) {
    const entries = (device as Record<string, unknown> | null)?.['trace_entries'];
    if (typeof entries === 'number') traceEntries += entries;
  }
  return { devices: devices.length, traceEntries };
}
