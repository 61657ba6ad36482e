// The hand-over of the worker the served page starts before its bundle: taken once, dropped when
// it fails to load (so the page never posts a file to a worker that will not answer), and nothing
// to take where none was started.

import { describe, expect, it } from 'vitest';
import {
  PRESTARTED_DECODER_KEY,
  prestartDecoder,
  takePrestartedDecoder,
} from './prestarted-decoder';

class FakeWorker {
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  postMessage(): void {}
  terminate(): void {
    this.terminated = true;
  }
  fail(): void {
    let prevented = false;
    this.onerror?.({ preventDefault: () => (prevented = true) } as unknown as ErrorEvent);
    if (!prevented) throw new Error('the failure was left to the console');
  }
}

describe('prestartDecoder / takePrestartedDecoder', () => {
  it('leaves the started worker for the page, which takes it once', () => {
    const holder = {};
    const worker = new FakeWorker();
    prestartDecoder(holder, () => worker as unknown as Worker);
    expect(takePrestartedDecoder(holder)).toBe(worker);
    expect(takePrestartedDecoder(holder)).toBeNull();
    expect(PRESTARTED_DECODER_KEY in holder).toBe(false);
  });

  it('drops a worker whose script fails to load', () => {
    const holder = {};
    const worker = new FakeWorker();
    prestartDecoder(holder, () => worker as unknown as Worker);
    worker.fail();
    expect(worker.terminated).toBe(true);
    expect(takePrestartedDecoder(holder)).toBeNull();
  });

  it('leaves nothing when the worker cannot be started at all', () => {
    const holder = {};
    prestartDecoder(holder, () => {
      throw new Error('refused by the policy');
    });
    expect(takePrestartedDecoder(holder)).toBeNull();
  });

  it('finds nothing where no page started one (the static build, Electron)', () => {
    expect(takePrestartedDecoder({})).toBeNull();
    expect(takePrestartedDecoder({ [PRESTARTED_DECODER_KEY]: 'not a worker' })).toBeNull();
    expect(takePrestartedDecoder()).toBeNull();
  });
});
