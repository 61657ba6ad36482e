import { isAbsolute, resolve } from 'node:path';

export interface LaunchContext {
  /** process.defaultApp: true when started as `electron <app-path> …`, so argv[1] is the app. */
  readonly isDefaultApp: boolean;
  /** Directory that relative paths are relative to. */
  readonly cwd: string;
}

/**
 * The snapshot files named on the command line, as absolute paths. Switches (`--inspect=0`,
 * `--no-sandbox`, …) are skipped wherever they appear, because Electron, Chromium and test
 * runners put their own before and after ours.
 */
export function snapshotPathsFromArgv(argv: readonly string[], context: LaunchContext): string[] {
  const positional = argv.slice(1).filter((argument) => !argument.startsWith('-'));
  const paths = context.isDefaultApp ? positional.slice(1) : positional;
  return paths.map((path) => (isAbsolute(path) ? path : resolve(context.cwd, path)));
}
