import type { AllocscopeBridge } from '../../preload/index.d';
import type { SnapshotClient } from './snapshot-client';

export function createElectronSnapshotClient(bridge: AllocscopeBridge): SnapshotClient {
  return {
    host: 'electron',
    openSnapshot: () => bridge.showOpenDialog(),
    onSnapshotOpened(listener) {
      const unsubscribe = bridge.onSnapshotOpened(listener);
      bridge.signalRendererReady();
      return unsubscribe;
    },
  };
}
