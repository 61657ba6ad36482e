import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

// File › Open Recent: the last few paths that decoded, most recent first, kept in a small JSON
// file in userData. A missing or damaged file is an empty list, never an error at startup.

export const MAX_RECENT_FILES = 10;

const recentFilesDocumentSchema = z.object({
  version: z.literal(1),
  paths: z.array(z.string().min(1)),
});

/** The list with `path` moved (or added) to the front, without duplicates, at most `limit` long. */
export function withRecentFile(
  paths: readonly string[],
  path: string,
  limit = MAX_RECENT_FILES,
): string[] {
  return [path, ...paths.filter((existing) => existing !== path)].slice(0, limit);
}

export function parseRecentFiles(text: string, limit = MAX_RECENT_FILES): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = recentFilesDocumentSchema.safeParse(json);
  if (!parsed.success) return [];
  return [...new Set(parsed.data.paths)].slice(0, limit);
}

export function serializeRecentFiles(paths: readonly string[]): string {
  return `${JSON.stringify({ version: 1, paths }, null, 2)}\n`;
}

export interface RecentFilesStore {
  /** Reads the file once; later calls return the list in memory. */
  load(): Promise<readonly string[]>;
  list(): readonly string[];
  includes(path: string): boolean;
  add(path: string): Promise<readonly string[]>;
  clear(): Promise<void>;
}

export function createRecentFilesStore(filePath: string): RecentFilesStore {
  let paths: readonly string[] = [];
  let loaded: Promise<readonly string[]> | null = null;
  // Writes run one after another, so the file always ends up with the latest list.
  let writing: Promise<void> = Promise.resolve();

  function save(): Promise<void> {
    const text = serializeRecentFiles(paths);
    writing = writing
      .then(async () => {
        await mkdir(dirname(filePath), { recursive: true });
        const temporary = `${filePath}.${process.pid}.tmp`;
        await writeFile(temporary, text, 'utf8');
        await rename(temporary, filePath);
      })
      .catch((error: unknown) => {
        console.warn(`[allocscope] could not save the recent files to ${filePath}:`, error);
      });
    return writing;
  }

  return {
    load() {
      loaded ??= readFile(filePath, 'utf8').then(
        (text) => (paths = parseRecentFiles(text)),
        () => paths,
      );
      return loaded;
    },
    list: () => paths,
    includes: (path) => paths.includes(path),
    async add(path) {
      await this.load();
      paths = withRecentFile(paths, path);
      await save();
      return paths;
    },
    async clear() {
      await this.load();
      paths = [];
      await save();
    },
  };
}
