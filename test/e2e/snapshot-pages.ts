/// <reference lib="dom" />
// Helpers the web specs share: decode a file here with the shared code the page runs (for
// expectations), open it in the page, and measure how much of a canvas got drawn.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '../../src/shared/snapshot/model';
import {
  buildAnalyzedSnapshot,
  type AnalyzedSnapshot,
} from '../../src/shared/analyzed/analyzed-snapshot';

export interface DecodedFile {
  model: SnapshotModel;
  snapshot: AnalyzedSnapshot;
}

export async function decodeFile(path: string): Promise<DecodedFile> {
  const bytes = new Uint8Array(readFileSync(path));
  const model = await decodeSnapshot(
    (async function* () {
      yield bytes;
    })(),
    { totalBytes: bytes.length },
  );
  return {
    model,
    snapshot: buildAnalyzedSnapshot(model, { fileName: basename(path), fileBytes: bytes.length }),
  };
}

/** Opens `path` through the file input and waits until its page is shown and ready. */
export async function openSnapshot(page: Page, path: string): Promise<void> {
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles(path);
  await expect(page.getByTestId('snapshot-page')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
}

/** Fraction of the canvas's pixels that are not transparent. */
export async function inkedFraction(canvas: Locator): Promise<number> {
  return canvas.evaluate((element) => {
    const canvasElement = element as HTMLCanvasElement;
    const context = canvasElement.getContext('2d');
    if (context === null || canvasElement.width === 0 || canvasElement.height === 0) return 0;
    const { data } = context.getImageData(0, 0, canvasElement.width, canvasElement.height);
    let inked = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) inked++;
    return inked / (canvasElement.width * canvasElement.height);
  });
}
