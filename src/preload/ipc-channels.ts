// Channel names shared by the preload (sender side) and main (handler side). Payload shapes are
// declared in ./index.d.ts and checked with zod in main (src/main/ipc-schemas.ts).
export const IpcChannel = {
  /** renderer → main, invoke: show the Open dialog; returns SnapshotFileInfo | null. */
  showOpenDialog: 'snapshot:show-open-dialog',
  /** main → renderer: a snapshot was opened from the menu or the command line. */
  snapshotOpened: 'snapshot:opened',
  /** renderer → main, send: the page is listening for snapshotOpened. */
  rendererReady: 'renderer:ready',
} as const;
