// Channel names shared by the preload (sender side) and main (handler side). Payload shapes are
// declared in ./index.d.ts; everything arriving from the page is checked with zod in main
// (src/main/ipc-schemas.ts).
export const IpcChannel = {
  /** renderer → main, invoke: show the Open dialog and decode the chosen file; resolves when chosen. */
  showOpenDialog: 'snapshot:show-open-dialog',
  /** renderer → main, send (path): decode a file of the recent list. */
  openRecentFile: 'snapshot:open-recent',
  /** renderer → main, send (absolute path of a dropped File, from webUtils): decode it. */
  openDroppedFile: 'snapshot:open-dropped',
  /** renderer → main, send: decode the demo snapshot shipped with the app. */
  openDemoSnapshot: 'snapshot:open-demo',
  /** renderer → main, send (job id): stop a decode. */
  cancelDecode: 'decode:cancel',
  /** renderer → main, invoke: the recent files, most recent first. */
  getRecentFiles: 'recent-files:get',
  /** renderer → main, send: the page is listening for decode events. */
  rendererReady: 'renderer:ready',
  /** renderer → main, invoke (SaveExportRequest): Save dialog, write the file; SaveExportResult. */
  saveExport: 'export:save',

  /** main → renderer: a decode began (DecodeStarted). */
  decodeStarted: 'decode:started',
  /** main → renderer: bytes read so far (DecodeProgressUpdate), a few times a second at most. */
  decodeProgress: 'decode:progress',
  /** main → renderer: the decoded view (DecodeDone). */
  decodeDone: 'decode:done',
  /** main → renderer: the file could not be opened (DecodeFailed). */
  decodeFailed: 'decode:failed',
  /** main → renderer: a menu item that acts on the page (MenuCommand). */
  menuCommand: 'menu:command',
  /** main → renderer: File › Export › … (ExportFormat); the page makes the file and saves it. */
  menuExport: 'menu:export',
} as const;
