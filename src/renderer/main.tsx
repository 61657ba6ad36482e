// First: zod must not try `new Function` under the page's CSP (see the module).
import './export/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createSnapshotClient } from './api/create-snapshot-client';
import { App } from './app';
import { applyPagePalette } from './canvas/page-palette';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The page's colours (CSS custom properties) come from the palette, before anything paints.
applyPagePalette(document.documentElement);

createRoot(container).render(
  <StrictMode>
    <App client={createSnapshotClient()} />
  </StrictMode>,
);
