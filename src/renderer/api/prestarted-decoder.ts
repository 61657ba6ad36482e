// The decode worker the page `allocscope serve` serves starts before its bundle has even been
// parsed (../prestart/served-prestart.ts, a script of its own that serve puts ahead of the bundle),
// handed over to the page's decoder as its first spare worker through a property of the window.
// The static build and Electron never set it: there the decoder starts its own.

/** The window's property that holds the started worker until the page's decoder takes it. */
export const PRESTARTED_DECODER_KEY = '__allocscopePrestartedDecoder';

/** The name the page's decode workers go by (in the browser's task manager and traces). */
export const DECODE_WORKER_NAME = 'allocscope-decoder';

type Holder = Record<string, unknown>;

/**
 * Starts the worker and leaves it for the page. One that fails to load (its script missing) is
 * dropped at once, so that the page never hands a file to a worker that will not answer.
 */
export function prestartDecoder(holder: object, startWorker: () => Worker): void {
  const slot = holder as Holder;
  let worker: Worker;
  try {
    worker = startWorker();
  } catch {
    return; // the page starts its own
  }
  worker.onerror = (event) => {
    event.preventDefault();
    worker.terminate();
    if (slot[PRESTARTED_DECODER_KEY] === worker) delete slot[PRESTARTED_DECODER_KEY];
  };
  slot[PRESTARTED_DECODER_KEY] = worker;
}

/** The worker started ahead, once (null when none was, or it failed to load). */
export function takePrestartedDecoder(holder: object = globalThis): Worker | null {
  const slot = holder as Holder;
  const worker = slot[PRESTARTED_DECODER_KEY];
  delete slot[PRESTARTED_DECODER_KEY];
  return typeof worker === 'object' && worker !== null && 'postMessage' in worker
    ? (worker as Worker)
    : null;
}
