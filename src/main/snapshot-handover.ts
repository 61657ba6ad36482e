import { basename } from 'node:path';
import type { WebContents } from 'electron';
import type { SnapshotOutcome } from '../preload/index.d';
import { IpcChannel } from '../preload/ipc-channels';
import { snapshotHandoverSchema } from './ipc-schemas';
import type { SnapshotTokenTable } from './snapshot-tokens';
import { snapshotUrlOf, tokenOfSnapshotUrl } from './snapshot-url';

// Files opened by path (Open dialog, Open Recent, drop, command line, demo) go to the page as a
// URL with a fresh token; the page's decode worker fetches it and decodes it exactly as the web
// build decodes a File. Main never reads the file itself, nor sees the decoded snapshot. Paths
// named before the page listens (the command line) wait for its ready signal; a reload or a closed
// window revokes the tokens handed to the old page.

export interface HandoverDependencies {
  readonly tokens: SnapshotTokenTable;
  /** Told of each file the page decoded (the recent-files list listens). */
  onDecoded?(path: string): void;
}

export interface HandoverService {
  /** The page that receives files; waits for its next rendererReady. */
  attach(contents: WebContents): void;
  markRendererReady(contents: WebContents): void;
  /** Hands the file to the page. */
  open(path: string, options?: HandoverOptions): void;
  /** The page's word on how a handed-over file ended; drops its token. */
  settle(contents: WebContents, url: string, outcome: SnapshotOutcome): void;
}

export interface HandoverOptions {
  /** Overrides the name shown (the demo). */
  readonly fileName?: string;
  /** The file's size, when main read it (see open-paths.ts). */
  readonly sizeBytes?: number | null;
  /** The folder of ranks the file came in (an id, not its path): the page shows them together. */
  readonly rankGroup?: string | null;
}

interface PendingOpen {
  readonly path: string;
  readonly fileName: string;
  readonly sizeBytes: number | null;
  readonly rankGroup: string | null;
}

export function createHandoverService(dependencies: HandoverDependencies): HandoverService {
  const { tokens } = dependencies;
  let target: WebContents | null = null;
  let rendererReady = false;
  const pending: PendingOpen[] = [];

  function handOver(contents: WebContents, file: PendingOpen): void {
    const token = tokens.issue({ path: file.path, fileName: file.fileName }, contents.id);
    const payload = snapshotHandoverSchema.parse({
      url: snapshotUrlOf(token),
      fileName: file.fileName,
      sizeBytes: file.sizeBytes,
      rankGroup: file.rankGroup,
    });
    contents.send(IpcChannel.snapshotHandover, payload);
  }

  function flush(): void {
    if (!target || target.isDestroyed() || !rendererReady) return;
    for (const file of pending.splice(0)) handOver(target, file);
  }

  return {
    attach(contents) {
      target = contents;
      rendererReady = false;
      // The id is read now: a destroyed WebContents may no longer answer.
      const owner = contents.id;
      // A reload replaces the page: its tabs are gone, and so is the point of their tokens.
      contents.on('did-start-loading', () => {
        if (target === contents) rendererReady = false;
        tokens.revoke(owner);
      });
      contents.once('destroyed', () => {
        if (target === contents) target = null;
        tokens.revoke(owner);
      });
    },

    markRendererReady(contents) {
      if (contents !== target) return;
      rendererReady = true;
      flush();
    },

    open(path, options = {}) {
      pending.push({
        path,
        fileName: options.fileName ?? fileNameOf(path),
        sizeBytes: options.sizeBytes ?? null,
        rankGroup: options.rankGroup ?? null,
      });
      flush();
    },

    settle(contents, url, outcome) {
      const token = tokenOfSnapshotUrl(url);
      const file = token === null ? null : tokens.release(token, contents.id);
      if (file !== null && outcome === 'decoded') dependencies.onDecoded?.(file.path);
    },
  };
}

/** The name the page shows: the path's last part (a path such as `/` has none: then the path). */
function fileNameOf(path: string): string {
  const name = basename(path);
  return (name === '' ? path : name).slice(0, MAX_SHOWN_NAME_LENGTH) || '(unnamed)';
}

const MAX_SHOWN_NAME_LENGTH = 4096;
