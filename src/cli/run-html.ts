// `allocscope html FILE -o OUT.html`: one self-contained page to send to a colleague, the viewer
// and the snapshot inside, that opens offline from disk (./html/write-html-page.ts). The file is
// decoded first, so a bad snapshot (or a --device/--moment it does not have) is refused before
// anything is written; the page is written beside OUT under a temporary name and renamed into
// place, so a run that fails leaves no half page.

import { createWriteStream } from 'node:fs';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatBytes } from '@shared/format/units';
import { countOf } from '@shared/format/plural';
import { terminalField } from '@shared/format/terminal-safe';
import { describeDecodeError } from '@shared/snapshot/describe-decode-error';
import type { EmbeddedHeader } from '@shared/report/html-embedding';
import { UsageError, type HtmlCliOptions } from './cli-options';
import { chosenDevice, loadAnalyzedSnapshot } from './load-analyzed-snapshot';
import { openSnapshotFile, STDIN_FILE } from './read-snapshot-file';
import { resolveMoment } from './run-render';
import { declaredPolicyOf, reportPolicyOf, inlineHashesOf } from './html/page-policy';
import { writeHtmlPage } from './html/write-html-page';

/** The viewer template: built by vite.html.config.ts beside the CLI bundle (out/cli/assets/). */
export const VIEWER_TEMPLATE_URL = new URL('./assets/viewer.html', import.meta.url);

/**
 * Above this many bytes of snapshot the page is written with a warning: bench/html-page-bench.ts
 * measured generated snapshots of up to 2 GB opening from file:// in Chromium (2.3 GB of browser
 * memory at 2 GB); past that, the page's decode may need more memory than a browser gives a tab
 * (docs/html.md).
 */
export const HTML_WARN_BYTES = 2 ** 31;

export interface HtmlResult {
  /** The line to print. */
  readonly line: string;
  /** A warning for stderr, or null. */
  readonly warning: string | null;
}

export async function runHtml(
  options: HtmlCliOptions,
  templateUrl: URL = VIEWER_TEMPLATE_URL,
): Promise<HtmlResult> {
  if (options.file === STDIN_FILE)
    throw new UsageError('html reads FILE twice (to check it, then to copy it in): save it first');
  const output = resolve(options.output);
  await checkOutputFolder(output, options.file);
  const template = await readTemplate(templateUrl);
  const snapshot = await loadAnalyzedSnapshot(options.file, options);
  const opening = openingOf(snapshot, options);
  const header: Omit<EmbeddedHeader, 'schema'> = {
    fileName: snapshot.fileName,
    fileBytes: snapshot.fileBytes,
    opening,
  };
  const opened = await openSnapshotFile(options.file);
  const partial = join(dirname(output), `.${basename(output)}.${process.pid}.partial`);
  let end;
  try {
    const out = createWriteStream(partial, { flags: 'wx' });
    end = await writeHtmlPage({ template, bytes: opened.chunks, header, out });
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // Writing (a full disk, a folder taken away) is the output's fault; reading the file again
    // failing is the input's: both one line, exit 2.
    if (typeof code === 'string')
      throw new UsageError(`cannot write ${output}: ${describeDecodeError(error)}`);
    throw error;
  }
  const pageBytes = (await stat(output)).size;
  const what = end.compressedByAllocscope ? 'gzip-compressed' : 'gzip as it was';
  const line = terminalField(
    `${snapshot.fileName}: ${output} (${formatBytes(pageBytes)}; the snapshot ${what}, ` +
      `${formatBytes(end.embeddedBytes)} in ${countOf(end.chunks, 'piece')})`,
  );
  const warning =
    snapshot.fileBytes > HTML_WARN_BYTES
      ? `allocscope: warning: ${terminalField(snapshot.fileName)} is ${formatBytes(snapshot.fileBytes)}: ` +
        `browsers may not hold its page's decode in one tab (measured up to 2 GB; ` +
        'docs/html.md); allocscope serve or the desktop app open it from the file'
      : null;
  return { line, warning };
}

/** The page's first view: --device, --moment (resolved to an event) and --view, as given. */
function openingOf(
  snapshot: Awaited<ReturnType<typeof loadAnalyzedSnapshot>>,
  options: HtmlCliOptions,
): EmbeddedHeader['opening'] {
  if (options.device === null && options.moment === null && options.view === null) return null;
  // The CLI's rules: --device must be in the file, --moment in its trace (else exit 2).
  const device =
    options.device === null && options.moment === null
      ? null
      : chosenDevice(snapshot, options.device);
  const moment =
    options.moment === null || device === null ? null : resolveMoment(device, options.moment);
  return { device: device?.device ?? null, moment, view: options.view };
}

async function checkOutputFolder(output: string, input: string): Promise<void> {
  const folder = dirname(output);
  let isFolder = false;
  try {
    isFolder = (await stat(folder)).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder) throw new UsageError(`-o ${output}: the folder ${folder} does not exist`);
  try {
    const existing = await stat(output);
    if (existing.isDirectory())
      throw new UsageError(`-o ${output} is a folder: name the page's file (report.html)`);
    const source = await stat(input).catch(() => null);
    if (source !== null && source.ino === existing.ino && source.dev === existing.dev)
      throw new UsageError(`-o ${output} is the snapshot itself: name another file for the page`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
  }
}

/** The template, checked: its policy must allow exactly its inline code (else a blank page). */
async function readTemplate(url: URL): Promise<string> {
  let template: string;
  try {
    template = await readFile(fileURLToPath(url), 'utf8');
  } catch {
    throw new UsageError(
      `the page template ${fileURLToPath(url)} is missing: run \`npm run build:cli\` (it builds it)`,
    );
  }
  if (declaredPolicyOf(template) !== reportPolicyOf(inlineHashesOf(template)))
    throw new Error(`the page template ${fileURLToPath(url)} does not match its own policy`);
  return template;
}
