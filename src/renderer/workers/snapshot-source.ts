// The one place where what the decode worker was given becomes bytes: a File (read with
// file.stream()) or a URL (fetched, its body read as it arrives). After this, both builds run the
// same code: the decoder reads `chunks`, progress is scaled by `totalBytes`.

import { z } from 'zod';
import { UnreadableInputError } from '@shared/errors/unreadable-input';
import { gzipIsizeFrom, MIN_GZIP_BYTES } from '@shared/snapshot/gzip-stream';
import type { SnapshotRefusal } from '../../preload/index.d';
import type { DecodeSnapshotRequest } from './decode-worker-protocol';
import { chunksOf } from './stream-chunks';

export interface SnapshotSource {
  /** The name the snapshot is shown under. */
  readonly fileName: string;
  /** The size when known: File.size, or the response's Content-Length. */
  readonly totalBytes: number | null;
  readonly chunks: AsyncIterable<Uint8Array>;
  /** A gzip File's ISIZE, read from its end (a fetched body cannot be read from its end). */
  readonly gzipIsize: number | null;
}

/**
 * A failure that is a bug in allocscope and says so itself, with its report: a refusal of
 * Electron's main process that came with one.
 */
export class ReportedBug extends Error {
  constructor(
    message: string,
    readonly bugReport: string,
  ) {
    super(message);
    this.name = 'ReportedBug';
  }
}

/** The limits main's refusals are clipped to (src/main/snapshot-protocol.ts). */
const MAX_REFUSAL_MESSAGE_LENGTH = 10_000;
const MAX_REFUSAL_REPORT_LENGTH = 100_000;

/** The JSON body of a refused allocscope-file: request. */
export const snapshotRefusalSchema = z.strictObject({
  message: z.string().min(1).max(MAX_REFUSAL_MESSAGE_LENGTH),
  bugReport: z.string().min(1).max(MAX_REFUSAL_REPORT_LENGTH).optional(),
}) satisfies z.ZodType<SnapshotRefusal>;

export async function openSnapshotSource(
  request: DecodeSnapshotRequest,
  fetchUrl: (url: string) => Promise<Response> = (url) => fetch(url),
): Promise<SnapshotSource> {
  if (request.kind === 'file') {
    const { file } = request;
    // File read errors (NotReadableError, …) are named in plain words by classifyDecodeError.
    return {
      fileName: file.name,
      totalBytes: file.size,
      chunks: chunksOf(file.stream()),
      gzipIsize: await gzipIsizeOfFile(file),
    };
  }
  let response: Response;
  try {
    response = await fetchUrl(request.url);
  } catch (error) {
    throw new UnreadableInputError(`could not read it (${errorText(error)})`);
  }
  if (!response.ok) throw await refusalOf(response);
  const totalBytes = contentLengthOf(response);
  return {
    fileName: request.fileName,
    totalBytes,
    gzipIsize: null,
    chunks: chunksOf(response.body ?? new Blob([]).stream(), {
      // The body stopped half-way (the file could not be read further, the link was dropped).
      readError: (error) =>
        new UnreadableInputError(`the file could not be read (${errorText(error)})`),
      totalBytes,
    }),
  };
}

/** A gzip file's ISIZE from its first two and last four bytes; null for anything else. */
async function gzipIsizeOfFile(file: Blob): Promise<number | null> {
  if (file.size < MIN_GZIP_BYTES) return null;
  try {
    const [head, tail] = await Promise.all([
      file.slice(0, 2).arrayBuffer(),
      file.slice(file.size - 4).arrayBuffer(),
    ]);
    return gzipIsizeFrom(new Uint8Array(head), new Uint8Array(tail));
  } catch {
    // Unreadable: reading the file says so, in its own words.
    return null;
  }
}

/** Content-Length as a byte count, or null when it is missing or not a plain number. */
export function contentLengthOf(response: Response): number | null {
  const header = response.headers.get('content-length');
  if (header === null || !/^\d{1,16}$/.test(header.trim())) return null;
  const length = Number(header.trim());
  return Number.isSafeInteger(length) ? length : null;
}

/**
 * Why a URL gave no file. Main's refusals say it themselves (JSON, checked here): the file's fault
 * in the same words as anywhere else, or a bug with its report. Any other answer (the web build's
 * server) is described by its status.
 */
async function refusalOf(response: Response): Promise<Error> {
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) {
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      json = null;
    }
    const refusal = snapshotRefusalSchema.safeParse(json);
    if (refusal.success) {
      const { message, bugReport } = refusal.data;
      return bugReport === undefined
        ? new UnreadableInputError(message)
        : new ReportedBug(message, bugReport);
    }
  } else {
    await response.body?.cancel().catch(() => {});
  }
  if (response.status === 404)
    return new UnreadableInputError('the file is not part of this build');
  return new UnreadableInputError(
    `the server answered ${response.status} ${response.statusText}`.trim(),
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
