// Runs before the bundle of the page `allocscope serve` serves (serve puts it there; the static
// build and Electron never load it): starts the decode worker from its own file, beside this one,
// so that it loads and runs its script (a few hundred KB, ~0.3 s on a loaded machine) while the
// page's bundle is parsed and React mounts, not after the page asks for the served files. The page's
// decoder takes it as its first spare worker (../api/page-decoder.ts). Kept tiny: it delays the
// bundle by as long as it takes to run.

import { SERVED_MARKER_NAME } from '@shared/report/served-marker';
import { DECODE_WORKER_NAME, prestartDecoder } from '../api/prestarted-decoder';

/** Beside this script, in the web build's assets/ (vite.web.config.ts: servedPageScripts). */
const DECODE_WORKER_FILE = 'decode-worker.js';

const script = document.currentScript as HTMLScriptElement | null;
// Only in a served page: anywhere else there is no file to decode, and a worker would be waste.
if (script !== null && document.querySelector(`meta[name="${SERVED_MARKER_NAME}"]`) !== null) {
  const url = new URL(DECODE_WORKER_FILE, script.src).href;
  prestartDecoder(window, () => new Worker(url, { name: DECODE_WORKER_NAME }));
}
