import { formatBytes, formatExactBytes } from '@shared/units';
import type { SnapshotFile } from '../api/snapshot-client';

export interface WelcomeViewProps {
  readonly chosenFile: SnapshotFile | null;
  readonly errorMessage: string | null;
  readonly openShortcut: string | null;
  readonly onOpenSnapshot: () => void;
}

export function WelcomeView({
  chosenFile,
  errorMessage,
  openShortcut,
  onOpenSnapshot,
}: WelcomeViewProps) {
  return (
    <main className="welcome">
      <section className="welcome-card" aria-labelledby="welcome-title">
        <img className="welcome-logo" src="./favicon.svg" alt="" width={56} height={56} />
        <h1 id="welcome-title">allocscope</h1>
        <p className="welcome-tagline">
          Open a PyTorch CUDA memory snapshot and see where the GPU memory went — offline, on this
          computer.
        </p>

        <div className="welcome-actions">
          <button type="button" className="button-primary" onClick={onOpenSnapshot}>
            Open snapshot…
          </button>
          {openShortcut && <kbd className="welcome-shortcut">{openShortcut}</kbd>}
        </div>

        <div className="welcome-status" role="status" aria-live="polite">
          {chosenFile && (
            <p className="chosen-file" data-testid="chosen-file">
              <span className="chosen-file-name">{chosenFile.fileName}</span>
              <span
                className="chosen-file-size"
                title={`${formatExactBytes(chosenFile.sizeBytes)} bytes`}
              >
                {formatBytes(chosenFile.sizeBytes)}
              </span>
            </p>
          )}
          {errorMessage && (
            <p className="welcome-error" role="alert">
              {errorMessage}
            </p>
          )}
        </div>

        <p className="welcome-hint">
          Record one with <code>torch.cuda.memory._record_memory_history()</code>, then save it with{' '}
          <code>torch.cuda.memory._dump_snapshot(&quot;snapshot.pickle&quot;)</code>.
        </p>
      </section>
    </main>
  );
}
