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
    // On a laptop screen the secondary figures make room for the notices (styles.css); the
    // strip's title still gives every figure.
    <dl className="summary-strip" data-testid="summary-strip" title={summaryTitle(device)}>
      {/* A CPU profiler trace records no reserved bytes: no figure rather than a 0 B one. */}
      {figures.reservedRecorded && (
        <>
          <BytesFigure
            label="Reserved peak"
            testId="summary-reserved-peak"
            bytes={figures.reserved.peakBytes}
          />
          <BytesFigure
            label="Reserved final"
            secondary
            testId="summary-reserved-final"
            bytes={figures.reserved.finalBytes}
          />
        </>
      )}
      <BytesFigure
        label="Active peak"
        testId="summary-active-peak"
        bytes={figures.active.peakBytes}
        emphasis
      />
      <BytesFigure
        label="Active final"
        secondary
        testId="summary-active-final"
        bytes={figures.active.finalBytes}
      />
      <CountFigure label="Segments" testId="summary-segments" count={figures.segments} secondary />
      <CountFigure label="Events" testId="summary-events" count={figures.traceEntries} secondary />
      <CountFigure
        label="OOMs"
        testId="summary-ooms"
        count={ooms}
        className={ooms > 0 ? 'figure-alarm' : undefined}
      />
      <div className="figure figure-secondary">
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

function figureClass(...extra: (string | false | undefined)[]): string {
  return ['figure', ...extra.filter((name): name is string => typeof name === 'string')].join(' ');
}

function BytesFigure(props: {
  label: string;
  testId: string;
  bytes: number;
  emphasis?: boolean;
  secondary?: boolean;
}) {
  return (
    <div
      className={figureClass(
        props.emphasis === true && 'figure-emphasis',
        props.secondary === true && 'figure-secondary',
      )}
    >
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
  secondary?: boolean;
}) {
  return (
    <div className={figureClass(props.className, props.secondary === true && 'figure-secondary')}>
      <dt>{props.label}</dt>
      <dd data-testid={props.testId} data-count={String(props.count)}>
        {countFormat.format(props.count)}
      </dd>
    </div>
  );
}

/** Every figure in one line of text: the strip's title, for the figures a narrow strip hides. */
function summaryTitle(device: AnalyzedDevice): string {
  const { figures } = device;
  const windowUs = traceWindowUs(device);
  return [
    ...(figures.reservedRecorded
      ? [
          `reserved peak ${formatBytes(figures.reserved.peakBytes)}`,
          `reserved final ${formatBytes(figures.reserved.finalBytes)}`,
        ]
      : ['reserved not recorded']),
    `active peak ${formatBytes(figures.active.peakBytes)}`,
    `active final ${formatBytes(figures.active.finalBytes)}`,
    `${countFormat.format(figures.segments)} segments`,
    `${countFormat.format(figures.traceEntries)} events`,
    `${countFormat.format(figures.ooms.length)} OOMs`,
    `trace window ${windowUs === null ? '—' : formatDurationUs(windowUs)}`,
  ].join(' · ');
}
