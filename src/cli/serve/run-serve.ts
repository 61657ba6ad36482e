// `allocscope serve FILE|DIR... [--port P] [--host H]`: the viewer and the named snapshots over
// HTTP from the machine they are on, for a browser elsewhere (through `ssh -L`). Everything is
// checked before it listens: a bad path or a taken port is one line and exit 2. It prints the URL
// (with its random token) and the ssh line, and runs until SIGINT or SIGTERM.

import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import { isIP } from 'node:net';
import { sep } from 'node:path';
import { formatBytes } from '@shared/format/units';
import type { ServedFile } from '@shared/report/served-manifest';
import { UsageError, type ServeCliOptions } from '../cli-options';
import { printErrLine, printOut } from '../terminal-output';
import { createServeHandler } from './serve-http';
import { listServedFiles, type ServedFiles } from './served-files';
import { findWebBuild, loadWebBuild } from './web-build';

export interface StartedServer {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  readonly token: string;
}

/** Whether an address to listen on reaches only this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Lists the files, loads the web build and listens; throws a UsageError for bad input. */
export async function startServe(
  options: Pick<ServeCliOptions, 'paths' | 'port' | 'host'>,
  webDirectory = findWebBuild(),
): Promise<StartedServer & ServedFiles> {
  const { files, leftOut } = listServedFiles(options.paths);
  const web = loadWebBuild(webDirectory);
  const token = randomBytes(32).toString('base64url');
  const loopbackOnly = isLoopbackHost(options.host);
  const handle = createServeHandler({ token, files, web, hostName: hostname(), loopbackOnly });
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, options)));
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const urlHost = urlHostOf(options.host);
  return { server, port, token, url: `http://${urlHost}:${port}/${token}/`, files, leftOut };
}

export async function runServe(options: ServeCliOptions): Promise<void> {
  const started = await startServe(options);
  const { port, url, server } = started;
  // Listening: from now on Ctrl+C closes it (before anything is printed that a user acts on).
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => resolve());
      // Browsers keep connections open: close them, or close() waits for them.
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  for (const entry of started.leftOut)
    printErrLine(`allocscope: ${entry.path}: ${entry.why} (left out)`);
  if (!isLoopbackHost(options.host)) {
    const files = started.files.map((file) => file.path);
    printErrLine(
      `allocscope: serve listens on ${options.host} port ${port}: anyone who can reach this ` +
        `machine there and has the URL (its token) can read the page and ${files.join(', ')}`,
    );
  }
  printOut(
    [
      `allocscope serve: open ${url}`,
      isLoopbackHost(options.host)
        ? `from a laptop: ssh -N -L ${port}:${urlHostOf(options.host)}:${port} ${hostname()}  then open the URL there`
        : `from another machine: the URL with this machine's name or address for ${options.host}`,
      servedListLine(started.files),
      'Ctrl+C stops it',
      '',
    ].join('\n'),
  );
  await stopped;
}

/** "serving 3 snapshots (12.4 MiB): run.pickle, /runs/ranks/ (2)": what the URL gives access to. */
export function servedListLine(files: readonly ServedFile[]): string {
  const named: string[] = [];
  const folders = new Map<string, number>();
  for (const file of files)
    if (file.group === null) named.push(file.name);
    else folders.set(file.group, (folders.get(file.group) ?? 0) + 1);
  const parts = [
    ...named,
    ...[...folders].map(
      ([folder, count]) => `${folder}${folder.endsWith(sep) ? '' : sep} (${count})`,
    ),
  ];
  const bytes = files.reduce((sum, file) => sum + file.sizeBytes, 0);
  const count = `${files.length} snapshot${files.length === 1 ? '' : 's'}`;
  return `serving ${count} (${formatBytes(bytes)}): ${parts.join(', ')}`;
}

function urlHostOf(host: string): string {
  if (host === '0.0.0.0' || host === '::') return hostname();
  return isIP(host) === 6 ? `[${host}]` : host;
}

function listenError(error: NodeJS.ErrnoException, options: { port: number; host: string }) {
  switch (error.code) {
    case 'EADDRINUSE':
      return new UsageError(`port ${options.port} is in use; pass --port 0 for a free one`);
    case 'EACCES':
      return new UsageError(
        `may not listen on port ${options.port} here; pass --port 0 for a free one`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(`cannot listen on ${options.host}: no such address on this machine`);
    default:
      return error;
  }
}
