// `allocscope` command: thin over src/shared. Bad input exits 2 with one line on stderr and
// nothing on stdout, so scripts can trust that stdout is either the document or empty.

import { bugReportOf } from '@shared/snapshot/describe-decode-error';
import { summaryDocumentOf } from '@shared/report/summary-report';
import { parseCliOptions, USAGE, UsageError, type SummaryCliOptions } from './cli-options';
import { formatSummaryText } from './format-summary-text';
import { readSnapshotFile } from './read-snapshot-file';
import { failureLine } from './failure-line';
import { runRender } from './run-render';
import { runReport } from './run-report';
import { runSegments } from './run-segments';
import { runTop } from './run-top';
import { runSteps } from './run-steps';
import { runDiff } from './run-diff';
import { runRanks } from './run-ranks';
import { runHtml } from './run-html';
import { FileFailure } from './file-failure';
import { summaryFiguresOf } from './summary-figures';
import { jsonText } from '@shared/format/json-text';
import { exitQuietlyWhenStdoutCloses, printErr, printErrLine, printOut } from './terminal-output';
import { NoDevicesNotice } from './no-devices';

const EXIT_BAD_INPUT = 2;
const EXIT_INTERNAL_ERROR = 1;

async function runSummary(options: SummaryCliOptions): Promise<void> {
  const started = performance.now();
  const read = await readSnapshotFile(options.file, options);
  const decoded = performance.now();
  const figures = summaryFiguresOf(read, options);
  const fileBytes = read.fileBytes;
  const output = options.json
    ? jsonText(summaryDocumentOf(figures))
    : formatSummaryText(figures, { exactBytes: options.bytes });
  const finished = performance.now();
  printOut(`${output}\n`);
  if (options.timings) {
    const timings = {
      read_decode_ms: Math.round(decoded - started),
      analysis_ms: Math.round(finished - decoded),
      total_ms: Math.round(finished - started),
      max_rss_bytes: process.resourceUsage().maxRSS * 1024,
      cpu_ms: cpuMilliseconds(),
      input_bytes: fileBytes,
      decode_threads: read.decodeThreadCpuSeconds?.length ?? 1,
      // Each decoding thread's CPU, the main thread first (not for standard input).
      ...(read.decodeThreadCpuSeconds === undefined
        ? {}
        : {
            decode_thread_cpu_ms: read.decodeThreadCpuSeconds.map((seconds) =>
              Math.round(seconds * 1000),
            ),
          }),
    };
    printErr(`allocscope-timings ${jsonText(timings, 0)}\n`);
  }
}

/** CPU time of the whole process so far (start-up included): what a busy machine does not inflate. */
function cpuMilliseconds(): number {
  const usage = process.resourceUsage();
  return Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000);
}

async function main(argv: readonly string[]): Promise<number> {
  let options;
  try {
    options = parseCliOptions(argv);
  } catch (error) {
    printErrLine(`allocscope: ${error instanceof Error ? error.message : String(error)}`);
    printErr(`run 'allocscope --help' for usage\n`);
    return EXIT_BAD_INPUT;
  }
  if (options.command === 'help') {
    printOut(`${USAGE}\n`);
    return 0;
  }
  if (options.command === 'mcp') {
    // Loaded only for this command: the SDK and its schemas cost every other command ~100 ms of
    // start-up CPU (a hostile-file test holds a whole run under 1 s).
    const { runMcp } = await import('./mcp/run-mcp');
    await runMcp();
    return 0;
  }
  if (options.command === 'serve') {
    // Loaded only for this command too: the other commands' start-up stays as it is.
    const { runServe } = await import('./serve/run-serve');
    try {
      await runServe(options);
    } catch (error) {
      if (error instanceof UsageError) {
        printErrLine(`allocscope: ${error.message}`);
        return EXIT_BAD_INPUT;
      }
      printErrLine(`allocscope: internal error in serve: ${String(error)}`);
      printErr(`${bugReportOf(error)}\nThis is a bug in allocscope: please report it.\n`);
      return EXIT_INTERNAL_ERROR;
    }
    return 0;
  }
  const started = performance.now();
  try {
    switch (options.command) {
      case 'summary':
        await runSummary(options);
        break;
      case 'report':
        await runReport({
          file: options.file,
          device: options.device,
          jsonPath: options.json,
          maxMemory: options.maxMemory,
          memoryTimeline: options.memoryTimeline ?? null,
        });
        break;
      case 'render':
        printOut(`${await runRender(options)}\n`);
        break;
      case 'segments':
        printOut(`${await runSegments(options)}\n`);
        break;
      case 'top':
        printOut(`${await runTop(options)}\n`);
        break;
      case 'steps':
        printOut(`${await runSteps(options)}\n`);
        break;
      case 'diff':
        printOut(`${await runDiff(options)}\n`);
        break;
      case 'ranks':
        printOut(`${await runRanks(options)}\n`);
        break;
      case 'html': {
        const { line, warning } = await runHtml(options);
        if (warning !== null) printErrLine(warning);
        printOut(`${line}\n`);
        break;
      }
    }
    return 0;
  } catch (thrown) {
    const notice = thrown instanceof FileFailure ? thrown.cause : thrown;
    if (notice instanceof NoDevicesNotice) {
      // Read, not refused (./no-devices.ts): the words where a document would go, unless one
      // was asked for (--json keeps stdout for JSON).
      if ('json' in options && options.json !== false && options.json !== null)
        printErrLine(`allocscope: ${notice.message}`);
      else printOut(`${notice.message}\n`);
      return 0;
    }
    // Tied to one of several files (diff): that file is named, its cause judged.
    const path =
      'file' in options
        ? options.file
        : 'files' in options
          ? options.files.join(', ')
          : `${options.fileA}, ${options.fileB}`;
    // A refusal is timed too: how long and how much memory a bad file cost is a figure as well.
    if (options.command === 'summary' && options.timings) {
      const timings = {
        failed: true,
        total_ms: Math.round(performance.now() - started),
        max_rss_bytes: process.resourceUsage().maxRSS * 1024,
        cpu_ms: cpuMilliseconds(),
      };
      printErr(`allocscope-timings ${jsonText(timings, 0)}\n`);
    }
    const failure = failureLine(thrown, path);
    printErrLine(failure.line);
    if (!failure.internal) return EXIT_BAD_INPUT;
    // Not the file's fault: ours. Say so, with the stack, so that it can be reported and fixed.
    const error = thrown instanceof FileFailure ? thrown.cause : thrown;
    printErr(
      `${bugReportOf(error)}\n` +
        'This is a bug in allocscope: please report it with the command line and, if you can, the file.\n',
    );
    return EXIT_INTERNAL_ERROR;
  }
}

exitQuietlyWhenStdoutCloses();

process.exitCode = await main(process.argv.slice(2));
