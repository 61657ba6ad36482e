import { formatBytes } from '@shared/format/units';
import { snapshotFormName } from '@shared/format/words';
import { CloseIcon } from '../ui/icons';
import { progressFraction, type Tab } from '../state/app-state';
import { servedFromText } from './served-from';
import { distinctiveStarts, tabLabels } from './tab-labels';

export interface TabStripProps {
  readonly tabs: readonly Tab[];
  readonly selectedTabId: string | null;
  readonly onSelect: (tabId: string) => void;
  readonly onClose: (tabId: string) => void;
}

export function TabStrip({ tabs, selectedTabId, onSelect, onClose }: TabStripProps) {
  const labels = tabLabels(tabs.map((tab) => tab.fileName));
  const starts = distinctiveStarts(labels);
  return (
    <div className="tab-strip" role="tablist" aria-label="Open snapshots">
      {tabs.map((tab, index) => {
        const selected = tab.id === selectedTabId;
        const fraction = tab.kind === 'loading' ? progressFraction(tab) : null;
        // What the status bar says, for windows too short to show it.
        const detail =
          tab.kind === 'snapshot'
            ? [
                formatBytes(tab.snapshot.fileBytes),
                snapshotFormName(tab.snapshot.pickleProtocol, tab.snapshot.source),
                `${tab.snapshot.devices.length} ${tab.snapshot.devices.length === 1 ? 'device' : 'devices'}`,
                ...(tab.decodeThreads === undefined
                  ? []
                  : [`decoded on ${tab.decodeThreads} threads`]),
              ].join(' · ')
            : 'opening…';
        return (
          <div
            key={tab.id}
            className="tab"
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            data-testid="tab"
            data-tab-id={tab.id}
            data-file-name={tab.fileName}
            data-tab-state={tab.kind}
            data-tab-stage={tab.kind === 'loading' ? tab.stage : undefined}
            data-decode-threads={tab.kind === 'snapshot' ? (tab.decodeThreads ?? 1) : undefined}
            title={`${tab.fileName} — ${detail}${tab.servedFrom === undefined ? '' : `\n${servedFromText(tab.servedFrom)}`}`}
            onClick={() => onSelect(tab.id)}
            onAuxClick={(event) => {
              if (event.button === 1) onClose(tab.id); // middle click, as in browsers
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') onSelect(tab.id);
            }}
          >
            {tab.kind === 'loading' && <span className="tab-spinner" aria-hidden="true" />}
            <span className="tab-name" data-testid="tab-name">
              {/* The shared start gives way before the part that tells the tab apart. */}
              <span className="tab-name-shared">{labels[index]!.slice(0, starts[index])}</span>
              <span className="tab-name-own">{labels[index]!.slice(starts[index])}</span>
            </span>
            {fraction !== null && tab.kind === 'loading' && tab.stage !== 'waiting' && (
              <span className="tab-percent">{Math.round(fraction * 100)}%</span>
            )}
            <button
              type="button"
              className="tab-close"
              data-testid="tab-close"
              aria-label={`Close ${tab.fileName}`}
              title="Close (Ctrl+W)"
              onClick={(event) => {
                event.stopPropagation();
                onClose(tab.id);
              }}
            >
              <CloseIcon />
            </button>
          </div>
        );
      })}
    </div>
  );
}
