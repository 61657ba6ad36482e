import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { formatBytes, formatDurationUs, formatExactBytes } from '@shared/format/units';

/** Duration between the first and last trace entry, or null when the file records no times. */
export function traceWindowUs(device: AnalyzedDevice): number | null {
  const times = device.timeUs;
  if (times === null || times.length === 0) return null;
  let first = NaN;
  let last = NaN;
  for (let i = 0; i < times.length && Number.isNaN(first); i++) first = times[i]!;
  for (let i = times.length - 1; i >= 0 && Number.isNaN(last); i--) last = times[i]!;
  return Number.isNaN(first) || Number.isNaN(last) ? null : Math.max(0, last - first);
}

const countFormat = new Intl.NumberFormat('en-US');

export interface SummaryStripProps {
  readonly device: AnalyzedDevice;
}

/** The device's headline figures; each byte figure carries its exact count in data-bytes. */
export function SummaryStrip({ device }: SummaryStripProps) {
  const { figures } = device;
  const windowUs = traceWindowUs(device);
  const ooms = figures.ooms.length;
  return (
    <dl className="summary-strip" data-testid="summary-strip">
      <BytesFigure
        label="Reserved peak"
        testId="summary-reserved-peak"
        bytes={figures.reserved.peakBytes}
      />
      <BytesFigure
        label="Reserved final"
        testId="summary-reserved-final"
        bytes={figures.reserved.finalBytes}
      />
      <BytesFigure
        label="Active peak"
        testId="summary-active-peak"
        bytes={figures.active.peakBytes}
        emphasis
      />
      <BytesFigure
        label="Active final"
        testId="summary-active-final"
        bytes={figures.active.finalBytes}
      />
      <CountFigure label="Segments" testId="summary-segments" count={figures.segments} />
      <CountFigure label="Events" testId="summary-events" count={figures.traceEntries} />
      <CountFigure
        label="OOMs"
        testId="summary-ooms"
        count={ooms}
        className={ooms > 0 ? 'figure-alarm' : undefined}
      />
      <div className="figure">
        <dt>Trace window</dt>
        <dd
          data-testid="summary-trace-window"
          title={
            windowUs === null
              ? 'This file records no times (time_us)'
              : `${countFormat.format(Math.round(windowUs))} µs`
          }
        >
          {windowUs === null ? '—' : formatDurationUs(windowUs)}
        </dd>
      </div>
    </dl>
  );
}

function BytesFigure(props: { label: string; testId: string; bytes: number; emphasis?: boolean }) {
  return (
    <div className={props.emphasis ? 'figure figure-emphasis' : 'figure'}>
      <dt>{props.label}</dt>
      <dd
        data-testid={props.testId}
        data-bytes={String(props.bytes)}
        title={`${formatExactBytes(props.bytes)} bytes`}
      >
        {formatBytes(props.bytes)}
      </dd>
    </div>
  );
}

function CountFigure(props: {
  label: string;
  testId: string;
  count: number;
  className?: string | undefined;
}) {
  return (
    <div className={props.className ? `figure ${props.className}` : 'figure'}>
      <dt>{props.label}</dt>
      <dd data-testid={props.testId} data-count={String(props.count)}>
        {countFormat.format(props.count)}
      </dd>
    </div>
  );
}
