import { app, type Session, type WebContents } from 'electron';
import { allowedDevOrigins, isRendererUrl } from './renderer-location';
import { SNAPSHOT_SCHEME } from './snapshot-url';

// Defence in depth around the one window: the page never navigates, never opens windows or
// webviews, gets no permission but writing text to the clipboard, and never loads anything from
// the network. Files reach it only through allocscope-file: (./snapshot-protocol.ts).

/** Call before any window exists: applies to every web contents the app will ever create. */
export function hardenWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      // The app is a single page; a same-URL navigation is a reload (dev server HMR), not a visit.
      if (url !== contents.getURL()) event.preventDefault();
    });
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

const localSchemes = new Set([
  'file:',
  'data:',
  'blob:',
  'devtools:',
  'chrome-extension:',
  `${SNAPSHOT_SCHEME}:`,
]);

/** Call once the app is ready, on the session the window uses. */
export function restrictSession(session: Session): void {
  session.setPermissionRequestHandler((contents, permission, callback) =>
    callback(allowsPermission(contents, permission)),
  );
  session.setPermissionCheckHandler((contents, permission) =>
    allowsPermission(contents, permission),
  );

  const devOrigins = new Set(allowedDevOrigins());
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isLocalRequest(details.url, devOrigins);
    if (!allowed) console.warn(`[allocscope] blocked request to ${details.url}`);
    callback({ cancel: !allowed });
  });
}

/**
 * "Copy report" on a bug notice writes the report with navigator.clipboard.writeText, which
 * Chromium checks as this permission (it still needs a click). Our own page only; never reading.
 */
function allowsPermission(contents: WebContents | null, permission: string): boolean {
  return (
    permission === 'clipboard-sanitized-write' &&
    contents !== null &&
    isRendererUrl(contents.getURL())
  );
}

function isLocalRequest(url: string, devOrigins: ReadonlySet<string>): boolean {
  try {
    const parsed = new URL(url);
    return localSchemes.has(parsed.protocol) || devOrigins.has(parsed.origin);
  } catch {
    return false;
  }
}
