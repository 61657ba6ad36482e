// Channel names shared by the preload (sender side) and main (handler side). Payload shapes are
// declared in ./index.d.ts; everything arriving from the page is checked with zod in main
// (src/main/ipc-schemas.ts). No decoded data crosses IPC: main hands the page a URL, and the
// page's decode worker reads the file from it (src/main/snapshot-protocol.ts).
export const IpcChannel = {
  /** renderer → main, invoke: show the Open dialog and hand the chosen file over; resolves when chosen. */
  showOpenDialog: 'snapshot:show-open-dialog',
  /** renderer → main, invoke: show the folder dialog and hand the folder's snapshots over. */
  showOpenFolderDialog: 'snapshot:show-open-folder-dialog',
  /** renderer → main, send (path): hand over a file of the recent list. */
  openRecentFile: 'snapshot:open-recent',
  /** renderer → main, send (absolute path of a dropped File, from webUtils): hand it over (a folder: its snapshots, as ranks). */
  openDroppedFile: 'snapshot:open-dropped',
  /** renderer → main, send: hand over the demo snapshot shipped with the app. */
  openDemoSnapshot: 'snapshot:open-demo',
  /** renderer → main, send (url, SnapshotOutcome): the decode of a handed-over file ended. */
  settleSnapshot: 'snapshot:settle',
  /** renderer → main, invoke: the recent files, most recent first. */
  getRecentFiles: 'recent-files:get',
  /** renderer → main, send: the page is listening for hand-overs. */
  rendererReady: 'renderer:ready',
  /** renderer → main, invoke (SaveExportRequest): Save dialog, write the file; SaveExportResult. */
  saveExport: 'export:save',

  /** main → renderer: a file for the page to fetch and decode (SnapshotHandover). */
  snapshotHandover: 'snapshot:handover',
  /** main → renderer: a menu item that acts on the page (MenuCommand). */
  menuCommand: 'menu:command',
  /** main → renderer: File › Export › … (ExportFormat); the page makes the file and saves it. */
  menuExport: 'menu:export',
} as const;
