import type { RecentFile } from '../api/snapshot-client';

export interface WelcomeViewProps {
  readonly openShortcut: string;
  readonly onOpenSnapshot: () => void;
  /** A folder of ranks: one snapshot per rank of a job. */
  readonly onOpenFolder: () => void;
  readonly onOpenDemo: () => void;
  /** Electron's recent files; null in a browser, which has none. */
  readonly recentFiles: readonly RecentFile[] | null;
  readonly onOpenRecent: (path: string) => void;
}

function directoryOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut > 0 ? path.slice(0, cut) : path;
}

export function WelcomeView({
  openShortcut,
  onOpenSnapshot,
  onOpenFolder,
  onOpenDemo,
  recentFiles,
  onOpenRecent,
}: WelcomeViewProps) {
  return (
    <main className="welcome">
      <section className="welcome-card" aria-labelledby="welcome-title">
        <img className="welcome-logo" src="./favicon.svg" alt="" width={48} height={48} />
        <h1 id="welcome-title">allocscope</h1>
        <p className="welcome-tagline">
          Open a PyTorch CUDA memory snapshot and see where the GPU memory went — offline, on this
          computer.
        </p>

        <div className="welcome-actions">
          <button type="button" className="button-primary" onClick={onOpenSnapshot}>
            Open snapshot…
          </button>
          <button
            type="button"
            className="button"
            data-testid="welcome-open-folder"
            title="A folder with one snapshot per rank of a job: the ranks side by side"
            onClick={onOpenFolder}
          >
            Open a folder of ranks…
          </button>
          <button type="button" className="button" data-testid="open-demo" onClick={onOpenDemo}>
            Open the demo snapshot
          </button>
        </div>
        <p className="welcome-drop">
          or drop <code>.pickle</code> files or a folder of ranks anywhere in this window ·{' '}
          <kbd className="shortcut">{openShortcut}</kbd> to open
        </p>

        {recentFiles !== null && recentFiles.length > 0 && (
          <nav className="recent-files" aria-label="Recent files">
            <h2>Recent</h2>
            <ul>
              {recentFiles.map((file) => (
                <li key={file.path}>
                  <button
                    type="button"
                    className="recent-file"
                    data-testid="recent-file"
                    title={file.path}
                    onClick={() => onOpenRecent(file.path)}
                  >
                    <span className="recent-file-name">{file.fileName}</span>
                    <span className="recent-file-directory">{directoryOf(file.path)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        )}

        <p className="welcome-hint">
          Record one with <code>torch.cuda.memory._record_memory_history()</code>, then save it with{' '}
          <code>torch.cuda.memory._dump_snapshot(&quot;snapshot.pickle&quot;)</code>. Nothing leaves
          this computer.
        </p>
      </section>
    </main>
  );
}
