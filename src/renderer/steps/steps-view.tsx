// The Steps view (key 6): the training steps of the device (shared/steps: from the annotations,
// else the curve's repeats), the verdict on growth, each step's figures, and the leak suspects:
// memory made in a step and still held at the end, steepest growth first. A step's row selects
// the moment at its end (what it leaves behind); a suspect's row narrows the timeline and the
// Allocations table to the allocations it kept (the same filter as the search).

import { useEffect, useMemo, useState, type JSX } from 'react';
import { renderStepsSvg } from '@shared/render/steps-svg';
import type { ViewPicture } from '../export/export-files';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { formatSignedBytes } from '@shared/format/units';
import type { FoundSteps } from '@shared/steps/find-steps';
import { analyzeGrowth, GROWTH_BYS, type GrowthBy, type LeakSuspect } from '@shared/steps/growth';
import type { StepFigures } from '@shared/steps/step-figures';
import { useCategoryRules } from '../holders/category-rules-setting';
import type { HolderFilter } from '../holders/use-holder-filter';
import { Sparkline } from '../ui/sparkline';
import './steps.css';
import { BytesCell } from '../ui/bytes-cell';
import { phasesOf } from '@shared/steps/phases';
import { PhasesTable } from './phases-table';
import { FrameKeyText } from '../ui/frame-key-text';

export interface StepsViewProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  found: FoundSteps;
  moment: number;
  onMoment: (event: number) => void;
  filter: Pick<HolderFilter, 'picked' | 'setPicked'>;
  /** Hands over how to draw this view as shown (its PNG/SVG export); null once it goes. */
  onPicture: (picture: ViewPicture | null) => void;
}

const BY_WORDS: Record<GrowthBy, string> = {
  frame: 'top user frame',
  stack: 'stack',
  category: 'category',
};

export function StepsView(props: StepsViewProps): JSX.Element {
  const { snapshot, device, found, moment, onMoment, filter } = props;
  const [by, setBy] = useState<GrowthBy>('frame');
  const { rules } = useCategoryRules();
  const growth = useMemo(
    () => analyzeGrowth(snapshot, device, found, { by, rules }),
    [snapshot, device, found, by, rules],
  );
  const phases = useMemo(() => phasesOf(snapshot, device), [snapshot, device]);
  const stepNames = useMemo(() => found.steps.map((step) => step.name), [found]);
  const { onPicture } = props;
  useEffect(() => {
    const deviceIndex = snapshot.devices.indexOf(device);
    onPicture((size, theme) =>
      renderStepsSvg(snapshot, deviceIndex, growth, { ...size, theme, moment }),
    );
    return () => onPicture(null);
  }, [snapshot, device, growth, moment, onPicture]);
  const pickedLabel = filter.picked?.label ?? null;
  return (
    <div className="lower-view steps" data-testid="steps-view" data-source={found.source ?? 'none'}>
      <div className="steps-bar">
        <strong className="steps-verdict" data-testid="steps-verdict">
          {growth.verdict}
        </strong>
        <span className="steps-note">{found.note}</span>
      </div>
      {growth.steps.length > 0 && (
        <div className="steps-body">
          <StepsTable
            steps={growth.steps}
            reservedRecorded={device.figures.reservedRecorded}
            moment={moment}
            onMoment={onMoment}
          />
          <section className="steps-suspects" aria-label="Leak suspects">
            <div className="steps-suspects-bar">
              <span>Kept to the end, growing step after step, by</span>
              <select
                value={by}
                aria-label="Group the kept memory by"
                data-testid="steps-by"
                onChange={(event) => {
                  const next = GROWTH_BYS.find((option) => option === event.target.value);
                  if (next !== undefined) setBy(next);
                }}
              >
                {GROWTH_BYS.map((option) => (
                  <option key={option} value={option}>
                    {BY_WORDS[option]}
                  </option>
                ))}
              </select>
            </div>
            <SuspectsTable
              suspects={growth.suspects}
              steps={growth.steps.length}
              pickedLabel={pickedLabel}
              onPick={(suspect) => {
                const label = suspectLabel(suspect);
                filter.setPicked(pickedLabel === label ? null : { label, rows: suspect.rows });
              }}
            />
          </section>
        </div>
      )}
      <PhasesTable phases={phases} stepNames={stepNames} moment={moment} onMoment={onMoment} />
    </div>
  );
}

/** What a suspect's allocations are called where the filter is described. */
function suspectLabel(suspect: LeakSuspect): string {
  return `kept by ${suspect.key} (Steps)`;
}

function StepsTable(props: {
  steps: readonly StepFigures[];
  /** false (a CPU profiler trace): no "Reserved at end" column of 0 B. */
  reservedRecorded: boolean;
  moment: number;
  onMoment: (event: number) => void;
}): JSX.Element {
  const { steps, reservedRecorded, moment, onMoment } = props;
  return (
    <div className="largest-table steps-table">
      <div className="largest-table-scroll">
        <table data-testid="steps-table" aria-label="Steps">
          <thead>
            <tr>
              <th>Step</th>
              <th className="numeric">Events</th>
              <th className="numeric">Peak active</th>
              <th className="numeric">Active at end</th>
              {reservedRecorded && <th className="numeric">Reserved at end</th>}
              <th className="numeric">Change</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((step) => (
              <tr
                key={step.index}
                data-step={step.index}
                aria-selected={moment >= step.startEvent && moment <= step.endEvent}
                title="Click: the moment at the end of this step (what it leaves behind)"
                onClick={() => onMoment(step.endEvent)}
              >
                <td>{step.name}</td>
                <td className="numeric">
                  {step.startEvent}–{step.endEvent}
                </td>
                <BytesCell bytes={step.peakActiveBytes} />
                <BytesCell bytes={step.endActiveBytes} />
                {reservedRecorded && <BytesCell bytes={step.endReservedBytes} />}
                <td className="numeric">
                  {step.endActiveDeltaBytes === null
                    ? ''
                    : formatSignedBytes(step.endActiveDeltaBytes)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function SuspectsTable(props: {
  suspects: readonly LeakSuspect[];
  steps: number;
  pickedLabel: string | null;
  onPick: (suspect: LeakSuspect) => void;
}): JSX.Element {
  const { suspects, steps, pickedLabel, onPick } = props;
  if (suspects.length === 0)
    return (
      <p className="holders-empty" data-testid="steps-no-suspects">
        Nothing made in these steps is kept to the end in two steps or more.
      </p>
    );
  return (
    <div className="largest-table">
      <div className="largest-table-scroll">
        <table data-testid="steps-suspects" aria-label="Leak suspects">
          <thead>
            <tr>
              <th className="numeric">Growth / step</th>
              <th className="numeric">Grew in</th>
              <th className="numeric">Kept</th>
              <th>Per step</th>
              <th>Where</th>
            </tr>
          </thead>
          <tbody>
            {suspects.map((suspect) => (
              <tr
                key={suspect.key}
                data-key={suspect.key}
                data-bytes-per-step={Math.round(suspect.bytesPerStep)}
                aria-selected={pickedLabel === suspectLabel(suspect)}
                title="Click: show these allocations on the timeline and in the Allocations table (click again to show all)"
                onClick={() => onPick(suspect)}
              >
                <BytesCell bytes={suspect.bytesPerStep} />
                <td className="numeric">
                  {suspect.stepsGrown} of {steps}
                </td>
                <BytesCell bytes={suspect.totalBytes} />
                <td className="holders-spark">
                  <Sparkline values={suspect.bytesByStep} momentIndex={-1} />
                </td>
                <td
                  className="holders-key"
                  title={`${suspect.key}\nlargest stack: ${suspect.topFrame}`}
                >
                  <FrameKeyText text={suspect.key} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
