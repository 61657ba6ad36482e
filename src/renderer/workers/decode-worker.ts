// The page's decoder, in both builds: a Web Worker (bundled inline, so it also starts from a page
// opened from disk) that streams one file through the shared decoder and posts the snapshot back
// with its typed arrays transferred. The file comes as a File (web build, a File dropped in
// Electron without a path) or as a URL to fetch (Electron's hand-over, the web build's demo);
// ./snapshot-source.ts makes either a stream, and from there on the path is one. A picked File or
// a served file (byte ranges) the page gives threads to is first tried in parts
// (./decode-in-page-parts.ts): this worker is then the spine, and the page starts workers for the
// parts, which come here as 'part' requests. The page never parses; cancelling terminates the
// worker, which aborts its fetch.

import { CurvePreview, type CurvePreviewData } from '@shared/analysis/curve-preview';
import { frameLabelTablesOf } from '@shared/analysis/label-tables';
import { buildAnalyzedSnapshotData, transferablesOf } from '@shared/analyzed/analyzed-snapshot';
import { decodeSnapshot, type DecodeProgress } from '@shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '@shared/snapshot/model';
import type { TraceRowsSoFar } from '@shared/snapshot/trace-table-builder';
import { classifyDecodeError } from '@shared/snapshot/describe-decode-error';
import type {
  DecodeSnapshotRequest,
  DecodeWorkerReply,
  DecodeWorkerRequest,
  PartBytes,
} from './decode-worker-protocol';
import { pageMemoryLimit } from './page-memory-limit';
import { addFirstScreenFigures } from './first-screen-figures';
import { decodeInPageParts, runPagePart, type PagePartsDecode } from './decode-in-page-parts';
import { openSnapshotSource, ReportedBug } from './snapshot-source';
import { withMemoryTimeline } from './with-memory-timeline';

// Each progress message re-renders the page, on the cores the decoder needs: ten a second is
// enough for a progress bar.
const PROGRESS_INTERVAL_MS = 100;
// The curves drawn while it decodes cost the page a layout and a canvas, a few ms each: twice a
// second is enough to watch them grow (ten a second took a fifth of the page's thread on a busy
// 2-core machine).
const PREVIEW_INTERVAL_MS = 500;

/** The slice of DedicatedWorkerGlobalScope used here (the renderer's lib is DOM, not WebWorker). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<DecodeWorkerRequest>) => void) | null;
  postMessage(message: DecodeWorkerReply, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

function post(message: DecodeWorkerReply, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

/** What a decode in parts reads, and on how many threads; null: one thread, as a stream. */
function partsOf(
  request: DecodeSnapshotRequest,
): { bytes: PartBytes; sizeBytes: number; threads: number } | null {
  if (request.kind === 'file') {
    const threads = request.threads ?? 1;
    return threads < 2 ? null : { bytes: request.file, sizeBytes: request.file.size, threads };
  }
  const { ranges } = request;
  if (ranges === undefined || ranges.threads < 2) return null;
  const { sizeBytes, threads } = ranges;
  return { bytes: { url: request.url, sizeBytes }, sizeBytes, threads };
}

/** The decode in parts this worker is the spine of, while it runs. */
let inParts: PagePartsDecode | null = null;

async function decode(request: DecodeSnapshotRequest): Promise<void> {
  let bytesRead = 0;
  let lastPostedAt = -Infinity;
  let lastStage = '';
  let totalBytes: number | null = request.kind === 'file' ? request.file.size : null;
  // The curves of the rows decoded so far, drawn while the page waits: followed only when a
  // report goes out, so each row is read once more in all.
  let traceRows: TraceRowsSoFar | null = null;
  let curves = new CurvePreview();
  let lastPreviewAt = -Infinity;
  const previewNow = (now: number): { preview?: CurvePreviewData } => {
    if (traceRows === null) return {};
    lastPreviewAt = now;
    curves.follow(traceRows);
    return { preview: curves.data() };
  };
  const onProgress = (progress: DecodeProgress): void => {
    bytesRead = progress.bytesRead;
    const now = performance.now();
    if (progress.phase === lastStage && now - lastPostedAt < PROGRESS_INTERVAL_MS) return;
    lastPostedAt = now;
    lastStage = progress.phase;
    const preview = now - lastPreviewAt < PREVIEW_INTERVAL_MS ? {} : previewNow(now);
    post({ type: 'progress', stage: progress.phase, bytesRead, totalBytes, ...preview });
  };
  // A decode in parts given up starts again on one thread: its curves start again with it.
  const onTraceRows = (rows: TraceRowsSoFar): void => {
    traceRows = rows;
    curves = new CurvePreview();
  };
  let threads = 1;
  let decoded: SnapshotModel | null = null;
  const inPartsOf = partsOf(request);
  if (inPartsOf !== null) {
    // A served file's size comes from serve's list (a picked File's is its own).
    totalBytes = inPartsOf.sizeBytes;
    inParts = decodeInPageParts(inPartsOf.bytes, inPartsOf.threads, post, {
      onProgress: (bytesDecoded) =>
        onProgress({ phase: 'reading', bytesRead: bytesDecoded, totalBytes }),
      onTraceRows,
    });
    const started = inParts !== null;
    decoded = (await inParts?.model.catch(() => null)) ?? null;
    if (decoded !== null) threads = inPartsOf.threads;
    // Given up: the parts' workers still at work would take the cores the stream decode needs.
    else if (started) post({ type: 'end-parts' });
    inParts = null;
  }
  if (decoded === null) {
    const source = await openSnapshotSource(request);
    totalBytes = source.totalBytes;
    decoded = await decodeSnapshot(source.chunks, {
      ...(totalBytes === null ? {} : { totalBytes }),
      memoryLimit: pageMemoryLimit(),
      gzipIsize: source.gzipIsize,
      onProgress,
      onTraceRows,
    });
  }
  const fileName = request.kind === 'file' ? request.file.name : request.fileName;
  const model =
    request.kind === 'file' && request.memoryTimeline !== undefined
      ? await withMemoryTimeline(decoded, request.memoryTimeline, pageMemoryLimit())
      : decoded;
  const fileBytes =
    (request.kind === 'file' ? request.originalBytes : undefined) ?? totalBytes ?? bytesRead;
  post({
    type: 'progress',
    stage: 'analyzing',
    bytesRead: fileBytes,
    totalBytes: fileBytes,
    ...previewNow(performance.now()),
  });
  const snapshot = buildAnalyzedSnapshotData(model, { fileName, fileBytes });
  // Every stack labelled here, not on the page's thread: frame names may be megabytes long.
  snapshot.labels = frameLabelTablesOf(snapshot);
  // And the first screen's figures, so that the page's thread only draws.
  addFirstScreenFigures(snapshot);
  post({ type: 'done', snapshot, threads }, transferablesOf(snapshot));
}

scope.onmessage = (event) => {
  const request = event.data;
  if (request.kind === 'part') {
    void runPagePart(request.job);
    return;
  }
  if (request.kind === 'part-lost') {
    inParts?.lose();
    return;
  }
  decode(request).catch((error: unknown) => {
    if (error instanceof ReportedBug) {
      post({ type: 'failed', message: error.message, bugReport: error.bugReport });
      return;
    }
    const failure = classifyDecodeError(error);
    post({
      type: 'failed',
      message: failure.message,
      ...(failure.kind === 'bug' ? { bugReport: failure.report } : {}),
    });
  });
};
