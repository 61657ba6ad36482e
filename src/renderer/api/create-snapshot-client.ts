import { createElectronSnapshotClient } from './electron-snapshot-client';
import type { SnapshotClient } from './snapshot-client';
import { createWebSnapshotClient } from './web-snapshot-client';

/** Electron's preload exposes `window.allocscope`; a plain browser has no such bridge. */
export function createSnapshotClient(): SnapshotClient {
  const bridge = window.allocscope;
  return bridge
    ? createElectronSnapshotClient(bridge)
    : createWebSnapshotClient(window.location, document);
}
