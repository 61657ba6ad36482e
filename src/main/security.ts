import { app, type Session } from 'electron';
import { allowedDevOrigins } from './renderer-location';

// Defence in depth around the one window: the page never navigates, never opens windows or
// webviews, never gets permissions, and never loads anything from the network.

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

const localSchemes = new Set(['file:', 'data:', 'blob:', 'devtools:', 'chrome-extension:']);

/** Call once the app is ready, on the session the window uses. */
export function restrictSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);

  const devOrigins = new Set(allowedDevOrigins());
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isLocalRequest(details.url, devOrigins);
    if (!allowed) console.warn(`[allocscope] blocked request to ${details.url}`);
    callback({ cancel: !allowed });
  });
}

function isLocalRequest(url: string, devOrigins: ReadonlySet<string>): boolean {
  try {
    const parsed = new URL(url);
    return localSchemes.has(parsed.protocol) || devOrigins.has(parsed.origin);
  } catch {
    return false;
  }
}
