import { formatBytes, formatExactBytes } from '@shared/format/units';
import { progressFraction, type LoadingTab } from '../state/app-state';
import { DecodePreviewChart } from './decode-preview-chart';

const STAGE_LABELS = {
  waiting: 'Waiting for the files before it (decoded a few at a time, as cores and memory allow)',
  reading: 'Reading',
  building: 'Building the model',
  analyzing: 'Computing timelines and figures',
} as const;

export interface ProgressViewProps {
  readonly tab: LoadingTab;
  readonly onCancel: () => void;
}

export function ProgressView({ tab, onCancel }: ProgressViewProps) {
  const fraction = progressFraction(tab);
  const reading = tab.stage === 'reading';
  const amount =
    tab.stage === 'waiting'
      ? tab.totalBytes === null
        ? ''
        : formatBytes(tab.totalBytes)
      : tab.totalBytes === null
        ? `${formatBytes(tab.bytesRead)} read`
        : `${formatBytes(tab.bytesRead)} of ${formatBytes(tab.totalBytes)}`;
  return (
    <div className="progress-page">
      <section
        className={`progress-card${tab.preview === undefined ? '' : ' progress-card-wide'}`}
        data-testid="progress"
        data-stage={tab.stage}
        data-bytes-read={tab.bytesRead}
        data-total-bytes={tab.totalBytes ?? ''}
        aria-label={`Opening ${tab.fileName}`}
      >
        <div className="progress-heading">
          <span className="progress-title">
            Opening <strong>{tab.fileName}</strong>
          </span>
          {fraction !== null && reading && (
            <span className="progress-percent">{Math.round(fraction * 100)}%</span>
          )}
        </div>
        {/* Past reading the work has no byte count: an indeterminate bar. */}
        <progress
          className="progress-bar"
          max={1}
          {...(reading && fraction !== null ? { value: fraction } : {})}
          aria-label="Decoding progress"
        />
        <div className="progress-detail">
          <span className="progress-stage">{STAGE_LABELS[tab.stage]}</span>
          <span
            className="progress-amount"
            title={`${formatExactBytes(tab.bytesRead)} bytes${
              tab.totalBytes === null ? '' : ` of ${formatExactBytes(tab.totalBytes)}`
            }`}
          >
            {amount}
          </span>
        </div>
        {tab.preview !== undefined && tab.preview.curves.lists.some((list) => list.rows > 0) && (
          <DecodePreviewChart preview={tab.preview} />
        )}
        <div className="progress-actions">
          <button type="button" className="button" data-testid="cancel" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </section>
    </div>
  );
}
