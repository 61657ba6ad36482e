// The Compare view (key 7): this device against another — a device of another open snapshot, or
// another device of this one — on one x axis (aligned by step when both have steps, else by time
// or event index, as the user picks), with B − A below; their figures and each phase's peaks side
// by side; and what changed between matched phases (the peak of the phase in which the higher run
// peaks, in each: shared/compare/phase-alignment.ts), or at each one's own peak, or at the ends of
// one aligned step, grouped like "Who holds it" (shared/compare). The second snapshot is
// any other open tab: open it (Ctrl/Cmd+O, or drop it on the window) and it is listed here.

import { useEffect, useMemo, useState, type JSX } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { alignCurves, ALIGN_BYS, canAlign, type AlignBy } from '@shared/compare/aligned-curves';
import { compareMoments, comparisonVerdict } from '@shared/compare/compare-moments';
import {
  alignMoments,
  type AlignedMoments,
  type MatchedPhase,
} from '@shared/compare/phase-alignment';
import { alignedVerdict, peakPhases } from '@shared/compare/aligned-verdict';
import { PHASE_NAMES, type PhaseName } from '@shared/steps/phases';
import { formatBytes, formatExactBytes, formatSignedBytes } from '@shared/format/units';
import { deviceLabel } from '@shared/format/words';
import { GROUP_BY_NAMES, type GroupBy } from '@shared/holders/group-by';
import { renderCompareSvg } from '@shared/render/compare-svg';
import { stepsOf, type FoundSteps } from '@shared/steps/find-steps';
import { RESERVED_NOT_RECORDED } from '@shared/analyzed/reserved-recorded';
import { sideBySideFigures, type ComparedSide } from '@shared/compare/side-by-side-figures';
import { currentThemeName, onThemeNameChange } from '../canvas/color-scheme';
import { useCategoryRules } from '../holders/category-rules-setting';
import './compare.css';
import { BytesCell } from '../ui/bytes-cell';
import { FrameKeyText } from '../ui/frame-key-text';
import type { ViewPicture } from '../export/export-files';

/** A device that can be compared with: of this snapshot or of another open tab. */
export interface CompareCandidate {
  /** Unique among the candidates: the tab's id and the device. */
  id: string;
  fileName: string;
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
}

export interface CompareViewProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  steps: FoundSteps;
  candidates: readonly CompareCandidate[];
  /** The candidate chosen ("tabId:device"); null or gone: the first. */
  chosenId: string | null;
  onChoose: (candidateId: string) => void;
  /** Hands over how to draw this view as shown (its PNG/SVG export); null once it goes. */
  onPicture: (picture: ViewPicture | null) => void;
}

const GROUPINGS: readonly GroupBy[] = ['frame', 'stack', 'category', 'size', 'file', 'annotation'];
const ALIGN_WORDS: Record<AlignBy, string> = {
  step: 'step',
  time: 'time',
  event: 'event index',
};
/** Changed groups listed (the largest changes). */
const ROWS = 100;

export function CompareView(props: CompareViewProps): JSX.Element {
  const { snapshot, device, steps, candidates, chosenId } = props;
  const other = candidates.find((candidate) => candidate.id === chosenId) ?? candidates[0] ?? null;
  if (other === null)
    return (
      <div className="lower-view compare" data-testid="compare-view" data-state="empty">
        <p className="holders-empty">
          Nothing to compare with yet: open a second snapshot (Ctrl/Cmd+O, or drop it on the window)
          — another run, another rank, another PyTorch version — and it is listed here. A file with
          several devices can also compare them with each other.
        </p>
      </div>
    );
  return (
    <CompareBody
      snapshot={snapshot}
      device={device}
      steps={steps}
      other={other}
      candidates={candidates}
      onChoose={props.onChoose}
      onPicture={props.onPicture}
    />
  );
}

function CompareBody(props: {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  steps: FoundSteps;
  other: CompareCandidate;
  candidates: readonly CompareCandidate[];
  onChoose: (id: string) => void;
  onPicture: (picture: ViewPicture | null) => void;
}): JSX.Element {
  const { snapshot, device, steps, other, candidates, onChoose, onPicture } = props;
  const [by, setBy] = useState<GroupBy>('frame');
  const [chosenAlign, setChosenAlign] = useState<AlignBy | null>(null);
  const [theme, setTheme] = useState(currentThemeName);
  useEffect(() => onThemeNameChange(setTheme), []);
  const { rules } = useCategoryRules();
  const otherSteps = useMemo(() => stepsOf(other.snapshot, other.device), [other]);
  const sideA = useMemo(() => ({ device, steps: steps.steps }), [device, steps]);
  const sideB = useMemo(
    () => ({ device: other.device, steps: otherSteps.steps }),
    [other, otherSteps],
  );
  // By step when both have steps, else by time when both have times, else by event.
  const alignBy =
    chosenAlign !== null && canAlign(sideA, sideB, chosenAlign)
      ? chosenAlign
      : (ALIGN_BYS.find((option) => canAlign(sideA, sideB, option)) ?? 'event');
  const curves = useMemo(() => alignCurves(sideA, sideB, alignBy), [sideA, sideB, alignBy]);
  const aName = `${snapshot.fileName} ${deviceLabel(device.device)}`;
  const bName = `${other.fileName} ${deviceLabel(other.device.device)}`;
  const svg = useMemo(
    () => renderCompareSvg(curves, { width: 1000, height: 280, theme, aName, bName }),
    [curves, theme, aName, bName],
  );
  // Where the two are compared: matched phases (default), each one's own peak, or the ends of
  // one aligned step (step k of each).
  const alignedSteps = Math.min(steps.steps.length, otherSteps.steps.length);
  const [chosenAt, setChosenAt] = useState<CompareAt>('phases');
  const at =
    typeof chosenAt === 'number' && chosenAt >= alignedSteps ? ('phases' as const) : chosenAt;
  // The default choice's phase and the phases both have, whatever is chosen now (option labels).
  const byPhase = useMemo(
    () => alignMoments({ snapshot, device }, other, 'phases'),
    [snapshot, device, other],
  );
  const aligned = useMemo(
    () =>
      typeof at === 'number'
        ? null
        : at === 'phases'
          ? byPhase
          : at === 'peaks'
            ? alignMoments({ snapshot, device }, other, 'peaks')
            : alignMoments({ snapshot, device }, other, 'phases', at.phase),
    [snapshot, device, other, at, byPhase],
  );
  // The two moments compared: the aligned ones, or the ends of step k of each.
  const moments = useMemo(
    () => ({
      a: aligned?.aMoment ?? steps.steps[at as number]!.endEvent,
      b: aligned?.bMoment ?? otherSteps.steps[at as number]!.endEvent,
    }),
    [aligned, at, steps, otherSteps],
  );
  const comparison = useMemo(
    () =>
      compareMoments(
        { snapshot, device, moment: moments.a },
        { snapshot: other.snapshot, device: other.device, moment: moments.b },
        { by, rules },
      ),
    [snapshot, device, other, by, rules, moments],
  );
  const verdict =
    aligned === null
      ? comparisonVerdict(comparison, `the ends of their step ${(at as number) + 1}`)
      : alignedVerdict(comparison, aligned, peakPhases({ snapshot, device }, other));
  const changed = comparison.groups.filter((group) => group.deltaBytes !== 0);
  useEffect(() => {
    onPicture((size, pictureTheme) =>
      renderCompareSvg(curves, { ...size, theme: pictureTheme, aName, bName, verdict, moments }),
    );
    return () => onPicture(null);
  }, [curves, aName, bName, verdict, moments, onPicture]);
  return (
    <div
      className="lower-view compare"
      data-testid="compare-view"
      data-state="shown"
      data-align={alignBy}
    >
      <div className="compare-bar">
        <label>
          Compare with{' '}
          <select
            data-testid="compare-with"
            value={other.id}
            onChange={(event) => onChoose(event.target.value)}
          >
            {candidates.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.fileName} · {deviceLabel(candidate.device.device)}
              </option>
            ))}
          </select>
        </label>
        <label>
          aligned by{' '}
          <select
            data-testid="compare-align"
            value={alignBy}
            onChange={(event) =>
              setChosenAlign(ALIGN_BYS.find((option) => option === event.target.value) ?? null)
            }
          >
            {ALIGN_BYS.map((option) => (
              <option key={option} value={option} disabled={!canAlign(sideA, sideB, option)}>
                {ALIGN_WORDS[option]}
              </option>
            ))}
          </select>
        </label>
        <strong className="compare-verdict" data-testid="compare-verdict">
          {verdict}
        </strong>
      </div>
      <div className="compare-body">
        <div className="compare-left">
          <FiguresSideBySide
            a={{ device, source: snapshot.source }}
            b={{ device: other.device, source: other.snapshot.source }}
            phases={byPhase.matchedPhases}
            compared={aligned?.phase ?? null}
          />
          <div
            className="compare-chart"
            data-testid="compare-chart"
            // Markup of our own renderer from the files' data: its texts are escaped.
            dangerouslySetInnerHTML={{ __html: svg }}
          />
        </div>
        <section className="compare-changes" aria-label="What changed at the peaks">
          <div className="steps-suspects-bar">
            <span>What changed at</span>
            <select
              value={atValue(at)}
              aria-label="Compare at"
              data-testid="compare-at"
              onChange={(event) => setChosenAt(atOfValue(event.target.value))}
            >
              <option value="phases">matched phases{phaseWords(byPhase)}</option>
              {byPhase.matchedPhases.map((phase) => (
                <option key={phase.name} value={`phase:${phase.name}`}>
                  the {phase.name} peaks
                </option>
              ))}
              <option value="peaks">each one&apos;s own peak</option>
              {Array.from({ length: alignedSteps }, (_, index) => (
                <option key={index} value={index}>
                  the end of step {index + 1}
                </option>
              ))}
            </select>
            <span>by</span>
            <select
              value={by}
              aria-label="Group the changes by"
              data-testid="compare-by"
              onChange={(event) => {
                const next = GROUPINGS.find((option) => option === event.target.value);
                if (next !== undefined) setBy(next);
              }}
            >
              {GROUPINGS.map((option) => (
                <option key={option} value={option}>
                  {GROUP_BY_NAMES[option]}
                </option>
              ))}
            </select>
          </div>
          <div className="largest-table">
            <div className="largest-table-scroll">
              <table data-testid="compare-table" aria-label="What changed">
                <thead>
                  <tr>
                    <th>Change</th>
                    <th className="numeric">A</th>
                    <th className="numeric">B</th>
                    <th className="numeric">B − A</th>
                    <th>Where</th>
                  </tr>
                </thead>
                <tbody>
                  {changed.slice(0, ROWS).map((group) => (
                    <tr key={group.key} data-key={group.key} data-delta={group.deltaBytes}>
                      <td>{group.change}</td>
                      <BytesCell bytes={group.aBytes} />
                      <BytesCell bytes={group.bBytes} />
                      <td className="numeric" title={`${formatExactBytes(group.deltaBytes)} bytes`}>
                        {formatSignedBytes(group.deltaBytes)}
                      </td>
                      <td className="holders-key" title={`${group.title} (${group.category})`}>
                        <FrameKeyText text={group.title} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {changed.length === 0 && <p className="holders-empty">Nothing changed.</p>}
            </div>
          </div>
        </section>
      </div>
    </div>
  );
}

/** Where the changes are taken: matched phases (the higher run's peak phase, or one named),
 *  each one's own peak, or the ends of step k of each. */
type CompareAt = 'phases' | 'peaks' | { phase: PhaseName } | number;

function atValue(at: CompareAt): string {
  return typeof at === 'number' ? String(at) : typeof at === 'string' ? at : `phase:${at.phase}`;
}

function atOfValue(value: string): CompareAt {
  if (value === 'phases' || value === 'peaks') return value;
  const phase = PHASE_NAMES.find((name) => value === `phase:${name}`);
  return phase !== undefined ? { phase } : Number(value);
}

/** " (forward)": the phase matched phases compare, or why they fall back to the peaks. */
function phaseWords(aligned: AlignedMoments): string {
  if (aligned.alignment === 'peaks')
    return aligned.fallback === null ? '' : ` (none: ${aligned.fallback})`;
  return aligned.phase === null ? '' : ` (${aligned.phase})`;
}

function FiguresSideBySide(props: {
  a: ComparedSide;
  b: ComparedSide;
  /** Each phase both have, with its peak in each. */
  phases: readonly MatchedPhase[];
  /** The phase the changes are taken at, or null. */
  compared: PhaseName | null;
}): JSX.Element {
  const rows = sideBySideFigures(props.a, props.b, props.phases, props.compared);
  const shown = (value: number, bytes: boolean): string | number =>
    bytes ? formatBytes(value) : value;
  // A side whose file records no such figure (reserved bytes of a CPU trace) says so in its own
  // column, and the row has no difference: never a 0 B that reads as measured.
  // The row's title says which side and why.
  const cell = (value: number | null, bytes: boolean): JSX.Element =>
    value === null ? (
      <td className="numeric compare-not-recorded">{RESERVED_NOT_RECORDED}</td>
    ) : (
      <td className="numeric">{shown(value, bytes)}</td>
    );
  return (
    <table className="compare-figures" data-testid="compare-figures">
      <thead>
        <tr>
          <th />
          <th className="numeric">A</th>
          <th className="numeric">B</th>
          <th className="numeric">B − A</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.name}
            data-figure={row.name}
            data-delta={row.delta ?? undefined}
            title={row.notRecorded ?? undefined}
          >
            <th scope="row">{row.name}</th>
            {cell(row.a, row.bytes)}
            {cell(row.b, row.bytes)}
            <td className="numeric">
              {row.delta === null
                ? '—'
                : `${row.delta > 0 ? '+' : row.delta < 0 ? '−' : ''}${shown(Math.abs(row.delta), row.bytes)}`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
