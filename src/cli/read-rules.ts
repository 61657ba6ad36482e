// `--rules FILE` of `top`, `render`, `steps` and `diff`: a categories rules file
// (allocscope.category-rules/1, docs/categories.md) read and checked through the shared schema.
// It is checked as a snapshot is before it is opened (a FIFO would block the read forever, a device
// never ends), refused from its size when it is larger than any rules file, and never read past
// that size (a file that grows while it is read cannot make it more). Whatever is wrong is a usage
// error that names the rules file first: `allocscope: rules.json: …`.

import { open, stat } from 'node:fs/promises';
import {
  MAX_RULES_FILE_BYTES,
  parseCategoryRules,
  rulesFileSizeProblem,
  type CategoryRules,
} from '@shared/holders/category-rules';
import { describeDecodeError } from '@shared/snapshot/describe-decode-error';
import { assertRegularFile } from '@shared/snapshot/regular-file';
import { isUnreadableInput } from '@shared/errors/unreadable-input';
import { UsageError } from './cli-options';
import { FileFailure } from './file-failure';

export async function readRules(path: string): Promise<CategoryRules> {
  const refuse = (message: string): FileFailure => new FileFailure(path, new UsageError(message));
  let text: string;
  try {
    text = await readSmallFile(path);
  } catch (error) {
    // Not a regular file, too large: said as such; the file system's refusals in its words.
    if (error instanceof UsageError || isUnreadableInput(error)) throw new FileFailure(path, error);
    throw refuse(`cannot read this rules file: ${describeDecodeError(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw refuse(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = parseCategoryRules(json);
  if (!parsed.ok) throw refuse(parsed.message);
  return parsed.rules;
}

/** The file's text: a regular file of at most MAX_RULES_FILE_BYTES, read no further. */
async function readSmallFile(path: string): Promise<string> {
  const info = await stat(path);
  if (info.isDirectory()) throw new UsageError('is a directory, not a rules file');
  assertRegularFile(info);
  const tooLarge = rulesFileSizeProblem(info.size);
  if (tooLarge !== null) throw new UsageError(tooLarge);
  const handle = await open(path, 'r');
  try {
    // One byte more than allowed: a file that holds more than its stat said is caught, and never
    // read whole.
    const buffer = Buffer.alloc(MAX_RULES_FILE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const readPast = rulesFileSizeProblem(length, true);
    if (readPast !== null) throw new UsageError(readPast);
    return new TextDecoder().decode(buffer.subarray(0, length));
  } finally {
    await handle.close();
  }
}
