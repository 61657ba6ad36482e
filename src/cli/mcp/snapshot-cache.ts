// Decoded snapshots kept between an agent's calls (`allocscope mcp`): an agent asks several
// questions of one file, and decoding is most of each answer's cost. Keyed by the file's real path,
// size and modification time (a file rewritten between calls is read again); least recently used
// out once the estimated memory passes the budget. The estimate is the file's size times a factor
// measured on the real snapshots (decoded columns and derived data ≈ 2-6× the pickle), so a budget
// of a quarter of the machine's memory keeps the server well away from the limits the decoder
// itself enforces.

import { realpath, stat } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { buildAnalyzedSnapshot, type AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { readSnapshotFile, type SnapshotFile } from '../read-snapshot-file';

/** Decoded bytes per file byte, an upper estimate (see the comment above). */
const BYTES_PER_FILE_BYTE = 6;
/** What one entry costs at least (tables, strings, derived data of a tiny file). */
const ENTRY_FLOOR_BYTES = 8 * 2 ** 20;

export interface CachedSnapshot {
  read: SnapshotFile;
  /** The analysed snapshot, built on first use and kept (its derived data with it). */
  analyzed(): AnalyzedSnapshot;
}

interface Entry {
  key: string;
  estimatedBytes: number;
  snapshot: Promise<CachedSnapshot>;
}

export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();
  /** How many decodes ran (tests: two calls on one file decode it once). */
  decodes = 0;

  constructor(private readonly budgetBytes = Math.floor(totalmem() / 4)) {}

  async get(path: string): Promise<CachedSnapshot> {
    const real = await realpath(path);
    const facts = await stat(real);
    const key = `${real}\u0000${facts.size}\u0000${facts.mtimeMs}`;
    const known = this.entries.get(key);
    if (known !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known.snapshot;
    }
    this.decodes++;
    const snapshot = readSnapshotFile(real, { progress: false }).then((read): CachedSnapshot => {
      let analyzed: AnalyzedSnapshot | null = null;
      return {
        read,
        analyzed: () =>
          (analyzed ??= buildAnalyzedSnapshot(read.model, {
            fileName: read.fileName,
            fileBytes: read.fileBytes,
          })),
      };
    });
    const entry = {
      key,
      estimatedBytes: Math.max(ENTRY_FLOOR_BYTES, facts.size * BYTES_PER_FILE_BYTE),
      snapshot,
    };
    this.entries.set(key, entry);
    // A file that cannot be read is not kept: the next call reads it again (it may be fixed).
    snapshot.catch(() => this.entries.delete(key));
    this.evict(key);
    return snapshot;
  }

  /** Entries held, least recently used first (file paths). */
  paths(): string[] {
    return [...this.entries.keys()].map((key) => key.split('\u0000')[0]!);
  }

  private evict(keep: string): void {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.estimatedBytes;
    for (const [key, entry] of this.entries) {
      if (total <= this.budgetBytes) break;
      if (key === keep) continue;
      this.entries.delete(key);
      total -= entry.estimatedBytes;
    }
  }
}
