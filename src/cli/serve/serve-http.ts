// The requests `allocscope serve` answers. Every path starts with the token (/<token>/...): the
// web build loads with relative URLs, so each of its requests carries it. Under it: the page
// (index.html, with the marker that tells it it is served), the web build's files (only those
// inside it), served.json (the manifest) and files/<id> (a listed snapshot's bytes, ranges and
// all). Anything else, and anything without the right token, is refused with a body that names
// nothing. Only GET and HEAD.

import { timingSafeEqual } from 'node:crypto';
import { realpath, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  SERVED_FILE_ID,
  SERVED_MANIFEST_FILE,
  SERVED_MANIFEST_SCHEMA,
  type ServedManifest,
} from '@shared/report/served-manifest';
import { byteRangeOf } from './byte-range';
import { openListedFile, openRegularFile, type ListedFile } from './served-files';
import type { WebBuild } from './web-build';

export interface ServeSetup {
  readonly token: string;
  readonly files: readonly ListedFile[];
  readonly web: WebBuild;
  /** This machine's name, for the page to say where the files are. */
  readonly hostName: string;
  /**
   * Bound to loopback: the Host header must name a loopback host (a page of another site that
   * rebinds its name to 127.0.0.1 sends its own name). False when bound elsewhere: the token alone.
   */
  readonly loopbackOnly: boolean;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** How much of a served file is read (and written to the socket) at a time. */
const READ_CHUNK_BYTES = 1 << 20;

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A path segment of the web build: plain names only (no `..`, no escapes, no dot files). */
const WEB_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function createServeHandler(setup: ServeSetup) {
  const token = Buffer.from(setup.token);
  const manifest: ServedManifest = {
    schema: SERVED_MANIFEST_SCHEMA,
    host: setup.hostName,
    files: setup.files.map(({ id, name, path, sizeBytes, group }) => ({
      id,
      name,
      path,
      sizeBytes,
      group,
    })),
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const byId = new Map(setup.files.map((file) => [file.id, file]));
  const securityHeaders = {
    'Cache-Control': 'no-store',
    // The token is in every URL: no other site may learn it from a Referer.
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    // The page's own policy (its meta tag), and no framing by another site.
    'Content-Security-Policy': `${setup.web.contentSecurityPolicy}; frame-ancestors 'none'`,
  };

  function sendText(
    response: ServerResponse,
    status: number,
    text: string,
    head: boolean,
    extra: Record<string, string> = {},
  ): void {
    const body = Buffer.from(`${text}\n`);
    response.writeHead(status, {
      ...securityHeaders,
      ...extra,
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': body.length,
    });
    response.end(head ? undefined : body);
  }

  function sendBytes(
    response: ServerResponse,
    body: Buffer,
    contentType: string,
    head: boolean,
  ): void {
    response.writeHead(200, {
      ...securityHeaders,
      'Content-Type': contentType,
      'Content-Length': body.length,
    });
    response.end(head ? undefined : body);
  }

  /** The open file, whole or the range asked for; closes the handle when done. */
  async function sendFile(
    request: IncomingMessage,
    response: ServerResponse,
    opened: { handle: FileHandle; sizeBytes: number },
    contentType: string,
    head: boolean,
  ): Promise<void> {
    const { handle, sizeBytes } = opened;
    try {
      const range = byteRangeOf(request.headers.range, sizeBytes);
      const headers = { ...securityHeaders, 'Accept-Ranges': 'bytes', 'Content-Type': contentType };
      if (range.kind === 'unsatisfiable') {
        sendText(response, 416, 'Range not satisfiable', head, {
          'Accept-Ranges': 'bytes',
          'Content-Range': `bytes */${sizeBytes}`,
        });
        return;
      }
      const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, sizeBytes - 1];
      response.writeHead(range.kind === 'part' ? 206 : 200, {
        ...headers,
        'Content-Length': end - start + 1,
        ...(range.kind === 'part' ? { 'Content-Range': `bytes ${start}-${end}/${sizeBytes}` } : {}),
      });
      if (head || end < start) {
        response.end();
        return;
      }
      // Streamed as read: the page decodes the first chunks of a 1 GB file while the rest comes.
      // In 1 MiB reads, not the stream's default 64 KiB: each read is a trip through libuv's
      // thread pool and a socket write: sending 100 MB took this process 0.45 s of CPU at 64 KiB,
      // 0.16 s at 1 MiB (4 MiB was no better), CPU taken from the cores the page decodes on.
      await pipeline(
        handle.createReadStream({ start, end, autoClose: false, highWaterMark: READ_CHUNK_BYTES }),
        response,
      );
    } catch {
      // The client went away, or the file could not be read further: the response is cut.
      response.destroy();
    } finally {
      await handle.close().catch(() => {});
    }
  }

  async function sendWebFile(
    request: IncomingMessage,
    response: ServerResponse,
    segments: readonly string[],
    head: boolean,
  ): Promise<void> {
    const opened = await openWebFile(setup.web.root, segments);
    if (opened === null) {
      sendText(response, 404, 'Not found', head);
      return;
    }
    const type = CONTENT_TYPES[extname(segments.at(-1)!).toLowerCase()];
    await sendFile(request, response, opened, type ?? 'application/octet-stream', head);
  }

  return async function handle(request: IncomingMessage, response: ServerResponse) {
    const head = request.method === 'HEAD';
    if (setup.loopbackOnly && !LOOPBACK_NAMES.has(hostNameOf(request.headers.host))) {
      sendText(response, 403, 'Forbidden', head);
      return;
    }
    const target = (request.url ?? '').split('?')[0]!;
    const segments = target.split('/');
    // segments[0] is the empty string before the first slash.
    if (segments[0] !== '' || !tokenMatches(segments[1] ?? '', token)) {
      sendText(response, 403, 'Forbidden', head);
      return;
    }
    if (request.method !== 'GET' && !head) {
      sendText(response, 405, 'Method not allowed', head, { Allow: 'GET, HEAD' });
      return;
    }
    const rest = segments.slice(2);
    if (rest.length === 0) {
      // /<token>: the page's relative URLs need the slash.
      response.writeHead(308, { ...securityHeaders, Location: `./${segments[1]}/` });
      response.end();
      return;
    }
    if (rest.length === 1 && (rest[0] === '' || rest[0] === 'index.html')) {
      sendBytes(response, setup.web.servedPage, CONTENT_TYPES['.html']!, head);
      return;
    }
    if (rest.length === 1 && rest[0] === SERVED_MANIFEST_FILE) {
      sendBytes(response, manifestBytes, CONTENT_TYPES['.json']!, head);
      return;
    }
    if (rest.length === 2 && rest[0] === 'files') {
      const file = SERVED_FILE_ID.test(rest[1]!) ? byId.get(rest[1]!) : undefined;
      const opened = file === undefined ? null : await openListedFile(file);
      if (opened === null) sendText(response, 404, 'Not found', head);
      else await sendFile(request, response, opened, 'application/octet-stream', head);
      return;
    }
    await sendWebFile(request, response, rest, head);
  };
}

/** The Host header's name without its port ("127.0.0.1:7317" → "127.0.0.1"). */
function hostNameOf(header: string | undefined): string {
  if (header === undefined) return '';
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(header.trim().toLowerCase());
  return match?.[1] ?? '';
}

/** In constant time for a candidate of the token's length (the length itself is no secret). */
function tokenMatches(candidate: string, token: Buffer): boolean {
  const given = Buffer.from(candidate);
  return given.length === token.length && timingSafeEqual(given, token);
}

/** A file of the web build by plain names, opened only if it really lies inside the build. */
async function openWebFile(
  root: string,
  segments: readonly string[],
): Promise<{ handle: FileHandle; sizeBytes: number } | null> {
  if (!segments.every((segment) => WEB_SEGMENT.test(segment))) return null;
  let path: string;
  try {
    path = await realpath(join(root, ...segments));
  } catch {
    return null;
  }
  return path.startsWith(root + sep) ? openRegularFile(path) : null;
}
