// A failure tied to one of several input files (diff reads two): main.ts names that file in its
// one line, and judges the cause (bad input, exit 2; our bug, exit 1) as for any other command.

export class FileFailure extends Error {
  override name = 'FileFailure';
  constructor(
    readonly file: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** Runs `load` for `file`; whatever it throws is tied to that file. */
export async function forFile<T>(file: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new FileFailure(file, error);
  }
}
