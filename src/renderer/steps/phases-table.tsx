// The phases of the steps (shared/steps/phases.ts): forward, backward, optimizer and other, inside
// each step or over the whole trace when no steps are found (a single forward + backward + step,
// a benchmark). A row selects the moment at the phase's peak; the band of colour beside the name
// is the phase's colour on the timeline's ruler.

import type { JSX } from 'react';
import { formatSignedBytes } from '@shared/format/units';
import { CATEGORY_NAMES, type Category } from '@shared/holders/categories';
import type { Phase, StepPhases } from '@shared/steps/phases';
import { BytesCell } from '../ui/bytes-cell';

export function PhasesTable(props: {
  phases: StepPhases;
  /** The steps' names by index (phases of a step say which). */
  stepNames: readonly string[];
  moment: number;
  onMoment: (event: number) => void;
}): JSX.Element {
  const { phases, stepNames, moment, onMoment } = props;
  if (phases.phases.length === 0)
    return (
      <p className="steps-phases-note" data-testid="phases-note">
        {phases.note}
      </p>
    );
  return (
    <section className="steps-phases" aria-label="Phases">
      <div className="steps-suspects-bar">{phases.note}</div>
      <div className="largest-table">
        <div className="largest-table-scroll">
          <table data-testid="phases-table" aria-label="Phases">
            <thead>
              <tr>
                <th>Phase</th>
                <th className="numeric">Events</th>
                <th className="numeric">Peak active</th>
                <th className="numeric">Active at end</th>
                <th className="numeric">Change</th>
                <th>Made and kept</th>
              </tr>
            </thead>
            <tbody>
              {phases.phases.map((phase) => (
                <tr
                  key={`${phase.step ?? ''}-${phase.name}`}
                  data-phase={phase.name}
                  data-step={phase.step ?? ''}
                  aria-selected={moment >= phase.startEvent && moment <= phase.endEvent}
                  title={`Click: the moment of this phase's peak (found from the ${phase.source})`}
                  onClick={() => onMoment(phase.peakEvent)}
                >
                  <td>
                    <span className={`phase-swatch phase-${phase.name}`} />
                    {phase.step === null ? '' : `${stepNames[phase.step] ?? ''} `}
                    {phase.name}
                  </td>
                  <td className="numeric">
                    {phase.startEvent}–{phase.endEvent}
                  </td>
                  <BytesCell bytes={phase.peakActiveBytes} />
                  <BytesCell bytes={phase.endActiveBytes} />
                  <td className="numeric">{formatSignedBytes(phase.addedBytes)}</td>
                  <td>{keptText(phase)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

/** The categories the phase made and kept, largest first. */
function keptText(phase: Phase): string {
  return Object.entries(phase.keptByCategory)
    .filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([category]) => CATEGORY_NAMES[category as Category] ?? category)
    .join(', ');
}
