// `allocscope ranks DIR|FILES...`: the ranks of one job, read in parallel worker threads (as many
// as there are cores and memory for), side by side: each rank's peaks and OOM, the skew, the
// ranks that stand out; text, or allocscope.ranks/1 with --json. A file that cannot be read, and a
// folder's entry that is no regular file (a folder, a FIFO, a link that loops or leads nowhere),
// is left out and named; the others are reported all the same.

import {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  statSync,
} from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodedBytesOf, parallelDecodes } from '@shared/analyzed/decode-budget';
import { isRankFileName, orderRanks, ranksFinding, type RanksFinding } from '@shared/compare/ranks';
import { deviceLabel } from '@shared/format/words';
import { RESERVED_NOT_RECORDED } from '@shared/analyzed/reserved-recorded';
import { formatBytes, formatExactBytes, formatSignedBytes } from '@shared/format/units';
import { describeDecodeError } from '@shared/snapshot/describe-decode-error';
import { folderEntryProblem, type EntryStat } from '@shared/snapshot/folder-entry';
import { ranksDocumentOf, type RankEntry } from '@shared/report/ranks-document';
import { alignColumns } from './align-columns';
import { gzipIsizeOf } from './gzip-isize';
import { UsageError, type RanksCliOptions } from './cli-options';
import { readRankFigures, type RankReply } from './read-rank-figures';
import { readInWorkers } from './rank-worker-pool';
import type { ReadSnapshotOptions } from './read-snapshot-file';
import { jsonText } from '@shared/format/json-text';
import { joinLines } from './text-lines';
import { printErrLine } from './terminal-output';

export async function runRanks(options: RanksCliOptions): Promise<string> {
  const listed = expandInputs(options.files);
  const readable = listed.filter((entry): entry is ListedFile => 'sizeBytes' in entry);
  const paths = readable.map((entry) => entry.path);
  const started = performance.now();
  const workers = workerCount(readable);
  const replies = await readAll(paths, workers, { maxMemory: options.maxMemory });
  const wallMs = performance.now() - started;
  const bug = replies.find((reply) => 'bug' in reply);
  if (bug !== undefined && 'bug' in bug)
    throw new Error(`while reading ${basename(bug.path)}: ${bug.bug}`);
  const byName = new Map(replies.map((reply) => [basename(reply.path), reply]));
  const entries: RankEntry[] = [];
  const refused: { file: string; message: string }[] = [];
  // Ranks are numbered among the files (a folder or a FIFO beside them takes no rank number).
  for (const { name, rank } of orderRanks(paths.map((path) => basename(path)))) {
    const reply = byName.get(name)!;
    if ('figures' in reply)
      entries.push({ rank, file: name, figures: reply.figures, detail: reply.detail });
    else if ('refused' in reply) refused.push({ file: name, message: reply.refused });
  }
  for (const entry of listed)
    if ('refused' in entry) refused.push({ file: basename(entry.path), message: entry.refused });
  if (entries.length === 0)
    throw new UsageError(
      `no rank could be read: ${refused.map((entry) => `${entry.file}: ${entry.message}`).join('; ')}`,
    );
  const finding = ranksFinding(entries);
  for (const entry of refused)
    printErrLine(`allocscope: ${entry.file}: ${entry.message} (left out)`);
  if (options.json)
    return jsonText(ranksDocumentOf(entries, finding, refused, { workers, wallMs }));
  return formatRanksText({ entries, finding, refused, workers, wallMs }, options.bytes);
}

/** A file to read, with its size (from the stat that found it a regular file). */
interface ListedFile {
  path: string;
  sizeBytes: number;
}

/** A folder's entry that cannot be a snapshot: left out, with why. */
interface LeftOut {
  path: string;
  refused: string;
}

/**
 * The files: each FILE as given, each DIR's snapshot files; two at least. An entry of a folder
 * that is not a regular file one can stat (a folder, a FIFO, a symbolic link that loops or leads
 * nowhere) is left out and named, never read: the others are reported all the same.
 */
function expandInputs(inputs: readonly string[]): (ListedFile | LeftOut)[] {
  const listed: (ListedFile | LeftOut)[] = [];
  for (const input of inputs) {
    let isDirectory = false;
    try {
      isDirectory = statSync(input).isDirectory();
    } catch (error) {
      throw new UsageError(`cannot read ${input}: ${describeDecodeError(error)}`);
    }
    if (!isDirectory) listed.push(listEntry(input));
    else
      listed.push(
        ...readdirSync(input)
          .filter(isRankFileName)
          .map((name) => listEntry(join(input, name))),
      );
  }
  const names = new Set(listed.map((entry) => basename(entry.path)));
  if (names.size !== listed.length) throw new UsageError('two of the files have the same name');
  if (listed.length < 2)
    throw new UsageError(
      `ranks needs two snapshots or more (found ${listed.length}: .pickle, .pkl, .gz in a folder)`,
    );
  return listed;
}

function listEntry(path: string): ListedFile | LeftOut {
  let stat: EntryStat;
  let sizeBytes = 0;
  try {
    const info = statSync(path);
    sizeBytes = info.size;
    stat = { info };
  } catch (error) {
    stat = {
      error,
      symbolicLink: lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false,
    };
  }
  const problem = folderEntryProblem(stat);
  return problem === null ? { path, sizeBytes } : { path, refused: problem };
}

/** As many workers as cores, files and memory allow (70% of what is free now). */
function workerCount(files: readonly ListedFile[]): number {
  return parallelDecodes(
    files.map(
      ({ path, sizeBytes }) => decodedBytesOf(path, sizeBytes, gzipUnpackedBytes(path)) ?? 0,
    ),
    { cores: availableParallelism(), memoryBytes: freemem() * 0.7 },
  );
}

/**
 * A gzip file's unpacked size, from its trailer (ISIZE: the size modulo 4 GiB; a larger file is
 * guessed as decodedBytesOf does); null for anything else.
 */
export function gzipUnpackedBytes(path: string): number | null {
  if (!/\.gz$/i.test(path)) return null;
  let handle: number | null = null;
  try {
    handle = openSync(path, 'r');
    const size = fstatSync(handle).size;
    const unpacked = gzipIsizeOf(handle, size);
    // ISIZE wraps at 4 GiB: an unpacked size below the packed one says it wrapped.
    return unpacked !== null && unpacked >= size ? unpacked : null;
  } catch {
    return null;
  } finally {
    if (handle !== null) closeSync(handle);
  }
}

/** The worker's script beside this bundle (out/cli); absent when run from the sources. */
function workerScript(): string | null {
  const script = fileURLToPath(new URL('./rank-figures-worker.js', import.meta.url));
  return existsSync(script) ? script : null;
}

async function readAll(
  paths: readonly string[],
  workers: number,
  options: ReadSnapshotOptions,
): Promise<RankReply[]> {
  const script = workerScript();
  if (script === null || workers === 1) {
    const replies: RankReply[] = [];
    for (const path of paths) replies.push(await readRankFigures(path, options));
    return replies;
  }
  return readInWorkers(script, paths, workers, options);
}

export interface RanksText {
  entries: readonly RankEntry[];
  finding: RanksFinding;
  refused: readonly { file: string }[];
  workers: number;
  wallMs: number;
}

/** Which ranks grow per step beside the others, and by how much; the median growth. */
function growthLine(
  entries: readonly RankEntry[],
  finding: RanksFinding,
  bytes: (value: number) => string,
): string {
  if (finding.medianGrowthBytesPerStep === null)
    return 'growth per step: no rank has three steps or more';
  const median = `median ${formatSignedBytes(finding.medianGrowthBytesPerStep, bytes)} per step`;
  if (finding.growthOutliers.length === 0) return `growth per step: no rank stands out (${median})`;
  const named = finding.growthOutliers.map((rank) => {
    const growth = entries.find((entry) => entry.rank === rank)!.detail.growthBytesPerStep!;
    return `rank ${rank} (${formatSignedBytes(growth, bytes)} per step)`;
  });
  return `growing step after step beside the others: ${named.join(', ')}; ${median}`;
}

export function formatRanksText(ranks: RanksText, exact: boolean): string {
  const { entries, finding } = ranks;
  const bytes = (value: number): string =>
    exact ? `${formatBytes(value)} (${formatExactBytes(value)} B)` : formatBytes(value);
  const marks = (rank: number): string =>
    [
      finding.oomRanks.includes(rank) ? 'OOM' : '',
      rank === finding.highestRank && !finding.highestShared ? 'highest' : '',
      finding.peakOutliers.includes(rank) ? 'outlier' : '',
      finding.growthOutliers.includes(rank) ? 'grows' : '',
    ]
      .filter((mark) => mark !== '')
      .join(', ');
  const rankList = (list: readonly number[]): string =>
    list.length === 0 ? 'none' : list.map((rank) => `rank ${rank}`).join(', ');
  const lines = [
    `${entries.length} ranks, read in ${ranks.workers} ${ranks.workers === 1 ? 'thread' : 'worker threads'} in ${(ranks.wallMs / 1000).toFixed(2)} s`,
    '',
    ...alignColumns(
      [
        [
          'rank',
          'peak active',
          'peak reserved',
          'cached free at peak',
          'largest hole',
          'OOM at',
          'steps',
          'growth/step',
          'device',
          '',
          'file',
        ],
        ...entries.map(({ rank, file, figures, detail }) => [
          String(rank),
          bytes(figures.peakActiveBytes),
          figures.peakReservedBytes === null
            ? RESERVED_NOT_RECORDED
            : bytes(figures.peakReservedBytes),
          detail.cachedFreeAtPeakBytes === null
            ? RESERVED_NOT_RECORDED
            : bytes(detail.cachedFreeAtPeakBytes),
          detail.largestFreeAtPeakBytes === null
            ? RESERVED_NOT_RECORDED
            : bytes(detail.largestFreeAtPeakBytes),
          figures.oomEvent === null ? '—' : `event ${figures.oomEvent}`,
          String(detail.steps),
          detail.growthBytesPerStep === null
            ? '—'
            : formatSignedBytes(detail.growthBytesPerStep, bytes),
          deviceLabel(figures.device),
          marks(rank),
          file,
        ]),
      ],
      [
        'right',
        'right',
        'right',
        'right',
        'right',
        'right',
        'right',
        'right',
        'left',
        'left',
        'left',
      ],
    ),
    '',
    `skew ${finding.skew.toFixed(2)} (the highest peak active over the median, ${bytes(finding.medianPeakActiveBytes)}); ` +
      `outliers: ${rankList(finding.outliers)}; out of memory: ${rankList(finding.oomRanks)}`,
    growthLine(entries, finding, bytes),
  ];
  if (ranks.refused.length > 0)
    lines.push(`left out (unreadable): ${ranks.refused.map((entry) => entry.file).join(', ')}`);
  return joinLines(lines);
}
