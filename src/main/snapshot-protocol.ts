import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { SnapshotRefusal } from '../preload/index.d';
// Relative, not '@shared/…': the hand-over end-to-end test imports this module in Playwright's
// Node, which does not know the alias.
import { bugReportOf, classifyDecodeError } from '../shared/snapshot/describe-decode-error';
import { assertRegularFile, type FileKind } from '../shared/snapshot/regular-file';
import type { SnapshotTokenTable } from './snapshot-tokens';
import { tokenOfSnapshotUrl } from './snapshot-url';

// What main answers on allocscope-file: — a pure function of the request, the token table and a
// file system, so it is unit-tested in Node without Electron (index.ts wraps it in a Response for
// protocol.handle). Only GET of a live token's URL reads a file: the file the user chose, checked
// to be a regular file before it is opened (opening a FIFO would block until a writer comes) and
// again once open (the path may have been swapped meanwhile), then streamed in 1 MiB chunks with
// its size as Content-Length, so the page shows progress. Cancelling the fetch in the page cancels
// the stream, which closes the file.
//
// Refusals are JSON ({ message, bugReport? }: SnapshotRefusal) that the page's decode worker turns
// into the same notice as any other failure: the file's fault (422: missing, not a regular file,
// permission denied, in the same words as everywhere else) or a bug in allocscope (404: a token
// unknown or already used; 405: not GET; 500: anything unexpected), with a bug report.
//
// A token opens its file once: a second request for the same URL is refused (404), whatever the
// first did. A Range header is ignored: the answer is always the whole file (200), as HTTP allows.

/** What is read of a file's stat: its kind and size. */
export interface SnapshotFileStats extends FileKind {
  readonly size: number;
}

export interface OpenSnapshotFile {
  /** fstat of the open file. */
  stat(): Promise<SnapshotFileStats>;
  /** Reads into `buffer` from `position`; resolves the byte count (0 at the end). */
  read(buffer: Uint8Array, position: number): Promise<number>;
  close(): Promise<void>;
}

/** The narrow file system the handler uses (Node's below, fakes in tests). */
export interface SnapshotFileSystem {
  stat(path: string): Promise<SnapshotFileStats>;
  open(path: string): Promise<OpenSnapshotFile>;
}

export interface SnapshotRequest {
  readonly method: string;
  readonly url: string;
}

export interface SnapshotResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The file's bytes (200), a JSON SnapshotRefusal (anything else). */
  readonly body: ReadableStream<Uint8Array> | string;
}

export const READ_CHUNK_BYTES = 1 << 20;

/** The longest refusal texts sent; longer ones are clipped (the page's schema has the same limits). */
export const MAX_REFUSAL_MESSAGE_LENGTH = 10_000;
export const MAX_REFUSAL_REPORT_LENGTH = 100_000;

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  // The page is a file:// (opaque) origin fetching cross-origin. Electron's per-scheme loader does
  // not check this today; Chromium's CORS would. Only a holder of a live token reads anything.
  'Access-Control-Allow-Origin': '*',
} as const;

export async function respondToSnapshotRequest(
  request: SnapshotRequest,
  tokens: Pick<SnapshotTokenTable, 'redeem'>,
  fileSystem: SnapshotFileSystem,
): Promise<SnapshotResponse> {
  if (request.method !== 'GET') {
    return refuse(405, ourBug(`${request.method} request refused: only GET reads a file`), {
      Allow: 'GET',
    });
  }
  const token = tokenOfSnapshotUrl(request.url);
  const file = token === null ? null : tokens.redeem(token);
  if (file === null) {
    return refuse(404, ourBug('the link to this file is unknown or was already used'));
  }

  let opened: OpenSnapshotFile | null = null;
  try {
    assertRegularFile(await fileSystem.stat(file.path));
    opened = await fileSystem.open(file.path);
    const stats = await opened.stat();
    assertRegularFile(stats);
    return {
      status: 200,
      headers: {
        ...COMMON_HEADERS,
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(stats.size),
      },
      body: fileStream(opened, stats.size),
    };
  } catch (error) {
    await opened?.close().catch(() => {});
    const failure = classifyDecodeError(error);
    return failure.kind === 'bug'
      ? refuse(500, { message: failure.message, bugReport: failure.report })
      : refuse(422, { message: failure.message });
  }
}

/** A refusal that is allocscope's fault: the page shows it as a bug, with this report. */
function ourBug(what: string): SnapshotRefusal {
  return {
    message: `internal error: ${what}`,
    bugReport: `allocscope internal error\n${SNAPSHOT_REFUSED}: ${what}`,
  };
}

const SNAPSHOT_REFUSED = 'allocscope-file: request refused';

function refuse(
  status: number,
  refusal: SnapshotRefusal,
  extraHeaders: Record<string, string> = {},
): SnapshotResponse {
  const message = clipText(refusal.message, MAX_REFUSAL_MESSAGE_LENGTH) || 'unknown error';
  const body: SnapshotRefusal =
    refusal.bugReport === undefined || refusal.bugReport === ''
      ? { message }
      : { message, bugReport: clipText(refusal.bugReport, MAX_REFUSAL_REPORT_LENGTH) };
  return {
    status,
    headers: {
      ...COMMON_HEADERS,
      ...extraHeaders,
      'Content-Type': 'application/json; charset=utf-8',
    },
    body: JSON.stringify(body),
  };
}

const CLIPPED_MARK = ' […]';

/** The text, or its start and a mark saying the rest was cut when it is longer than `max`. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - CLIPPED_MARK.length) + CLIPPED_MARK;
}

/**
 * The first `size` bytes of an open file (its size when checked: the Content-Length), read as the
 * consumer asks; the file is closed at the end, on a read error and when the consumer cancels.
 */
function fileStream(file: OpenSnapshotFile, size: number): ReadableStream<Uint8Array> {
  let position = 0;
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => (closing ??= file.close().catch(() => {}));
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const wanted = Math.min(READ_CHUNK_BYTES, size - position);
      let read = 0;
      let buffer: Uint8Array | null = null;
      if (wanted > 0) {
        buffer = new Uint8Array(wanted);
        try {
          read = await file.read(buffer, position);
        } catch (error) {
          await close();
          controller.error(error);
          return;
        }
      }
      if (read > 0) {
        position += read;
        controller.enqueue(read === wanted ? buffer! : buffer!.subarray(0, read));
      }
      // Done: all `size` bytes, or the file shrank (the decoder then says where it was cut).
      if (read === 0 || position >= size) {
        await close();
        controller.close();
      }
    },
    cancel: close,
  });
}

/**
 * Node's file system. Opened with O_NONBLOCK: should the path have become a FIFO since its stat,
 * the open returns at once (instead of waiting for a writer) and the fstat refuses it.
 */
export const nodeSnapshotFileSystem: SnapshotFileSystem = {
  stat: (path) => stat(path),
  async open(path) {
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    return {
      stat: () => handle.stat(),
      async read(buffer, position) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, position);
        return bytesRead;
      },
      close: () => handle.close(),
    };
  },
};

/**
 * The handler for Electron's protocol.handle: a web Request in, a web Response out. Never
 * rejects: an unexpected error is a 500 refusal that the page reports as a bug.
 */
export function snapshotProtocolHandler(
  tokens: Pick<SnapshotTokenTable, 'redeem'>,
  fileSystem: SnapshotFileSystem,
): (request: Request) => Promise<Response> {
  return async (request) => {
    let answer: SnapshotResponse;
    try {
      answer = await respondToSnapshotRequest(request, tokens, fileSystem);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      answer = refuse(500, {
        message: `internal error: ${message}`,
        bugReport: bugReportOf(error),
      });
    }
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}
