// First: zod must not try `new Function` under the page's CSP (see the module).
import './export/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createSnapshotClient } from './api/create-snapshot-client';
import { App } from './app';
import { applyPagePalette } from './canvas/page-palette';
import './styles.css';

/**
 * The longest a served page's first render waits for its files to be handed to the decoder:
 * the server's list answers in milliseconds; a server that does not is not worth a blank page.
 */
const MAX_MOUNT_WAIT_MS = 300;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The page's colours (CSS custom properties) come from the palette, before anything paints.
applyPagePalette(document.documentElement);

const client = createSnapshotClient();
const mount = (): void =>
  createRoot(container).render(
    <StrictMode>
      <App client={client} />
    </StrictMode>,
  );

// A served page hands its files to the decode worker before React mounts: the mount is one long
// task (0.1-0.2 s on a loaded machine), and the server's answer waited behind it, so the decode
// of the files started that much later (bench: the served page's first paint).
const handedOver = client.pageFilesHandedOver;
if (handedOver === undefined) mount();
else
  void Promise.race([
    handedOver,
    new Promise<void>((resolve) => setTimeout(resolve, MAX_MOUNT_WAIT_MS)),
  ]).then(mount);
