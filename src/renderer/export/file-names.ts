// Names of exported files: the snapshot's own name without its extensions, then what was
// exported. Safe on every desktop file system (no separators, reserved characters or names).

/** What the file systems we run on allow in one name (bytes on Linux, UTF-16 units elsewhere). */
export const MAX_FILE_NAME_LENGTH = 255;

const SNAPSHOT_EXTENSIONS = /(\.(pickle|pkl|html?|json))?(\.gz)?$/i;
// Windows' reserved characters, path separators and control characters.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;
const RESERVED_WINDOWS_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** "run.pickle.gz" → "run"; what is left of an odd name is made safe; never empty. */
export function snapshotBaseName(fileName: string): string {
  const last = fileName.split(/[\\/]/).pop() ?? '';
  const stripped = last.replace(SNAPSHOT_EXTENSIONS, '');
  let safe = stripped.replace(UNSAFE_CHARACTERS, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  if (safe === '' || RESERVED_WINDOWS_NAMES.test(safe))
    safe = `snapshot${safe === '' ? '' : `-${safe}`}`;
  return safe;
}

/** The base name shortened (by code points) so that base + suffix fits one file name. */
function withSuffix(fileName: string, suffix: string): string {
  const kept = [...snapshotBaseName(fileName)];
  const room = Math.max(1, MAX_FILE_NAME_LENGTH - suffix.length);
  while (kept.length > 1 && kept.join('').length > room) kept.pop();
  return `${kept.join('')}${suffix}`;
}

/** The charts a page exports as PNG/SVG: the tab shown (the largest-allocations tab: the timeline). */
export type ExportedView = 'timeline' | 'segments' | 'fragmentation' | 'oom' | 'steps' | 'compare';

/** `<base>.cuda<N>.<what>`: a file of one device's (what: the rest of the name and extension). */
export function deviceFileName(snapshotFileName: string, device: number, what: string): string {
  return withSuffix(snapshotFileName, `.cuda${device}.${what}`);
}

/** `<base>.allocscope-report.json`: the findings of the whole snapshot. */
export function reportFileName(snapshotFileName: string): string {
  return withSuffix(snapshotFileName, '.allocscope-report.json');
}

/** `<base>.cuda<N>.<view>.png|svg`: the chart as it is shown. */
export function chartFileName(
  snapshotFileName: string,
  device: number,
  /** The picture's name (a view's: registry entries name theirs, e.g. "flame"). */
  view: string,
  format: 'png' | 'svg',
): string {
  return withSuffix(snapshotFileName, `.cuda${device}.${view}.${format}`);
}

/**
 * `<base>.cuda<N>.allocations.after-event-<E>.csv` (`…before-trace.csv` for -1): every allocation,
 * the moment named because the CSV says which are alive at it; `<base>.cuda<N>.allocations.csv`
 * when no moment is selected.
 */
export function allocationsFileName(
  snapshotFileName: string,
  device: number,
  moment: number | null,
): string {
  const at = moment === null ? '' : moment < 0 ? '.before-trace' : `.after-event-${moment}`;
  return withSuffix(snapshotFileName, `.cuda${device}.allocations${at}.csv`);
}

// The files' types live with the saver (api/export-mime-types.ts): the platform floor.
export { EXPORT_MIME_TYPES } from '../api/export-mime-types';
