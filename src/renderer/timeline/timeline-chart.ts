// The timeline as an imperative chart on the canvas host (../canvas/canvas-host.ts): three layers
// (the overview strip, the plot, an overlay for hover, selection and the moment), the SVG axes
// and the visible window. React only mounts it and passes state in (timeline-view.tsx); mouse
// moves and zooming never go through React.
//
// Work per kind of change: the window, the data or the size -> a new laid-out plot
// (timeline-plot.ts: one pass over the window's events and the allocation table), the axes and
// every layer; hover, selection or moment -> only the overlay. Hover hit-testing
// (timeline-hit.ts) reads the current plot, never the trace. Input is timeline-input.ts, the
// window timeline-window.ts, the overview timeline-overview.ts, the axes timeline-axes.ts.

import { searchCurvePoints, type TimelineSearch } from './search-curve';
import type { BandColoring } from '@shared/chart/band-colors';
import type { TrainingStep } from '@shared/steps/find-steps';
import type { Phase } from '@shared/steps/phases';
import type { TimelineHit } from '@shared/chart/timeline-layout';
import type { TimelineSceneScratch } from '@shared/chart/timeline-scene';
import { momentCoordinate, type XMode } from '@shared/chart/event-axis';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { CanvasHost, type CanvasSize, type LayerBox } from '../canvas/canvas-host';
import {
  createTimelineAxes,
  removeTimelineAxes,
  renderMarkerLabels,
  renderTimelineAxes,
} from './timeline-axes';
import { drawOverlay, drawTimeline, HatchPatterns } from './timeline-draw';
import { overlayPicture, plotScene } from './timeline-pictures';
import {
  hitAt,
  hoverAt,
  largestBandAtPeak,
  largestNoStackBand,
  type PlotPoint,
  type TimelineHover,
} from './timeline-hit';
import { TimelineInput } from './timeline-input';
import { TimelineOverview } from './timeline-overview';
import {
  layoutPlot,
  plotCoordinates,
  TIMELINE_MARGIN,
  timelineData,
  type TimelineData,
  type TimelinePlot,
} from './timeline-plot';
import { timelineTheme, type TimelineTheme } from './timeline-theme';
import { TimelineWindow, type TimelineDomainInfo } from './timeline-window';

export type { TimelineHover } from './timeline-hit';
export type { TimelineDomainInfo } from './timeline-window';

export interface TimelineChartElements {
  /** Receives keyboard input and the data-* attributes tests read. */
  root: HTMLElement;
  /** The positioned box the plot, axes and overlay share; its size sets the chart's. */
  stage: HTMLElement;
  canvas: HTMLCanvasElement;
  overlay: HTMLCanvasElement;
  axes: SVGSVGElement;
  overview: HTMLElement;
  overviewCanvas: HTMLCanvasElement;
  overviewBrush: SVGSVGElement;
}

export interface TimelineChartCallbacks {
  onHover(hover: TimelineHover | null): void;
  onSelectRow(row: number | null): void;
  onMoment(event: number | null): void;
  onDomain(info: TimelineDomainInfo): void;
}

type Layer = 'overview' | 'plot' | 'overlay';

export class TimelineChart {
  private readonly elements: TimelineChartElements;
  private readonly callbacks: TimelineChartCallbacks;
  private readonly window: TimelineWindow;
  private readonly host: CanvasHost<TimelineTheme, Layer>;
  private readonly overview: TimelineOverview;
  private readonly input: TimelineInput;
  private data: TimelineData | null = null;
  /** Laid out at the last frame that needed it. */
  private plot: TimelinePlot | null = null;
  private layoutNeeded = true;
  private hoverNeeded = false;
  private hoverHit: TimelineHit | null = null;
  private selectedRow: number | null = null;
  private moment: number | null = null;
  /** How the bands are coloured; null: by stack. */
  private coloring: BandColoring | null = null;
  private drawCount = 0;
  private readonly hatches = new HatchPatterns();
  /** Buffers the plot's scene reuses from frame to frame (no garbage while zooming). */
  private readonly sceneScratch: TimelineSceneScratch = { bandPoints: new Float64Array(0) };
  /** The frame that tells React of the window's latest domain (one render a frame, not an event). */
  private domainFrame: number | null = null;
  /** Kinds of marks the last frames drew on the plot and on the overlay. */
  private plotMarks = new Set<string>();
  private overlayMarks = new Set<string>();

  constructor(elements: TimelineChartElements, callbacks: TimelineChartCallbacks) {
    this.elements = elements;
    this.callbacks = callbacks;
    this.window = new TimelineWindow(() => {
      this.invalidateLayout();
      this.domainChanged();
    });
    this.overview = new TimelineOverview(
      {
        overview: elements.overview,
        canvas: elements.overviewCanvas,
        brush: elements.overviewBrush,
      },
      this.window,
    );
    createTimelineAxes(elements.axes);
    this.host = new CanvasHost<TimelineTheme, Layer>({
      observe: [elements.stage, elements.overview],
      layers: {
        overview: {
          canvas: elements.overviewCanvas,
          draw: (context, size, theme) => this.overview.draw(context, size, this.data!, theme),
        },
        plot: {
          canvas: elements.canvas,
          draw: (context, size, theme) => this.drawPlot(context, size, theme),
        },
        overlay: {
          canvas: elements.overlay,
          draw: (context, size, theme) => this.drawOverlay(context, size, theme),
        },
      },
      measure: () => this.measure(),
      theme: timelineTheme,
      ready: () => {
        const size = this.host.size('plot');
        return this.data !== null && size.width > 0 && size.height > 0;
      },
      resized: () => {
        this.layoutNeeded = true;
      },
      prepare: () => this.prepare(),
    });
    this.input = new TimelineInput(this.host, elements, {
      window: this.window,
      hasData: () => this.data !== null,
      plotWidth: () => this.host.size('plot').width,
      xAtPixel: (x) => this.plot?.xScale.invert(x) ?? null,
      pointerChanged: () => {
        this.hoverNeeded = true;
        this.host.invalidate('overlay');
      },
      dragStarted: () => this.callbacks.onHover(null),
      click: (point) => this.click(point),
      clearSelection: () => {
        if (this.selectedRow === null) return false;
        this.callbacks.onSelectRow(null);
        return true;
      },
    });
  }

  destroy(): void {
    if (this.domainFrame !== null) cancelAnimationFrame(this.domainFrame);
    this.domainFrame = null;
    this.host.destroy();
    this.overview.destroy();
    removeTimelineAxes(this.elements.axes);
  }

  setData(snapshot: AnalyzedSnapshot, device: AnalyzedDevice, mode: XMode): void {
    const data = timelineData(snapshot, device, mode);
    this.data = data;
    if (this.window.setAxis(device, data.axis)) {
      this.hoverHit = null;
      this.callbacks.onHover(null);
    }
    this.elements.root.dataset['device'] = String(device.device);
    this.elements.root.dataset['xMode'] = data.axis.mode;
    this.invalidateLayout();
    this.host.invalidate('overview');
    this.domainChanged();
  }

  setSelectedRow(row: number | null): void {
    if (row === this.selectedRow) return;
    this.selectedRow = row;
    this.host.invalidate('overlay');
  }

  /** The training steps, drawn as a ruler along the bottom of the plot. */
  setSteps(steps: readonly TrainingStep[]): void {
    if (steps === this.steps) return;
    this.steps = steps;
    this.elements.root.dataset['steps'] = String(steps.length);
    this.host.invalidate('plot');
  }

  private steps: readonly TrainingStep[] = [];

  /** The phases (forward, backward, optimizer, other), drawn as bands above the step ruler. */
  setPhases(phases: readonly Phase[]): void {
    if (phases === this.phases) return;
    this.phases = phases;
    this.elements.root.dataset['phases'] = String(phases.length);
    this.host.invalidate('plot');
  }

  private phases: readonly Phase[] = [];

  /** The bytes a search matches over time, drawn over the bands; null clears it. */
  setSearch(search: TimelineSearch | null): void {
    if (search === this.search) return;
    this.search = search;
    this.searchPoints = null;
    this.elements.root.dataset['searchCurve'] = search === null ? 'none' : 'drawn';
    this.host.invalidate('plot', 'overlay');
  }

  private search: TimelineSearch | null = null;
  /** The curve's points for the plot they were computed for (the overlay redraws on every hover). */
  private searchPoints: { plot: TimelinePlot; points: Float64Array } | null = null;

  private searchPointsFor(plot: TimelinePlot): Float64Array | null {
    if (this.search === null) return null;
    if (this.searchPoints?.plot !== plot)
      this.searchPoints = { plot, points: searchCurvePoints(plot, this.search.curve) };
    return this.searchPoints.points;
  }

  setColoring(coloring: BandColoring): void {
    if (coloring === this.coloring) return;
    this.coloring = coloring;
    this.host.invalidate('plot');
  }

  setMoment(event: number | null): void {
    if (event === this.moment) return;
    this.moment = event;
    // The view follows a moment that leaves it (the keys step it), keeping the zoom.
    if (event !== null && this.data !== null)
      this.window.reveal(this.data.axis.toX(momentCoordinate(this.data.axis, event)));
    this.host.invalidate('overlay');
  }

  /** Zooms about the centre of the view (factor > 1 zooms in). */
  zoomBy(factor: number): void {
    this.window.zoomBy(factor);
  }

  /** Pans by a fraction of the visible span (positive: later). */
  panByFraction(fraction: number): void {
    this.window.panByFraction(fraction);
  }

  resetZoom(): void {
    this.window.reset();
  }

  /** Shows these events (a window the tab's store kept, on the page shown again). */
  showEvents(startEvent: number, endEvent: number): void {
    const axis = this.data?.axis;
    if (axis !== undefined) this.window.set({ x0: axis.toX(startEvent), x1: axis.toX(endEvent) });
  }

  // ---- state changes -------------------------------------------------------------------------

  private invalidateLayout(): void {
    this.layoutNeeded = true;
    this.host.invalidate('plot', 'overlay');
  }

  private domainChanged(): void {
    const info = this.window.info();
    if (info === null) return;
    const round = (value: number): number => Math.round(value * 100) / 100;
    this.elements.root.dataset['xDomain'] = `${round(info.startEvent)},${round(info.endEvent)}`;
    // A wheel or trackpad sends several events a frame, each moving the window; the overview's
    // brush (SVG) and React (the range, the exports, the fragmentation window) hear of the last
    // one only, once a frame, so zooming costs one update a frame however fast the events come.
    if (this.domainFrame !== null) return;
    this.domainFrame = requestAnimationFrame(() => {
      this.domainFrame = null;
      this.overview.moveBrush();
      const latest = this.window.info();
      if (latest !== null) this.callbacks.onDomain(latest);
    });
  }

  // ---- frame -----------------------------------------------------------------------------------

  /** The layers' boxes: plot and overlay inside the stage's margins, the overview under them. */
  private measure(): Record<Layer, LayerBox> {
    const { stage, overview } = this.elements;
    const m = TIMELINE_MARGIN;
    const width = Math.max(0, stage.clientWidth - m.left - m.right);
    const height = Math.max(0, stage.clientHeight - m.top - m.bottom);
    const plot = { left: m.left, top: m.top, width, height };
    return {
      overview: { left: m.left, width, height: overview.clientHeight },
      plot,
      overlay: plot,
    };
  }

  private prepare(): void {
    if (this.layoutNeeded) {
      this.layoutNeeded = false;
      const stage = this.elements.stage;
      this.plot = layoutPlot(this.data!, this.window.domain, this.host.size('plot'));
      renderTimelineAxes(
        this.elements.axes,
        { width: stage.clientWidth, height: stage.clientHeight },
        this.plot,
      );
      // The pointer may now be over something else.
      if (this.input.hoveringIdle()) this.hoverNeeded = true;
    }
    if (this.hoverNeeded) {
      this.hoverNeeded = false;
      this.updateHover();
    }
  }

  private drawPlot(
    context: CanvasRenderingContext2D,
    size: CanvasSize,
    theme: TimelineTheme,
  ): void {
    const plot = this.plot!;
    const scene = plotScene(plot, {
      coloring: this.coloring,
      highlight: this.search?.mask ?? null,
      steps: this.steps,
      phases: this.phases,
      scratch: this.sceneScratch,
    });
    const marks = drawTimeline(context, size, scene, theme, this.hatches);
    renderMarkerLabels(this.elements.axes, plot, theme);
    this.drawCount++;
    const root = this.elements.root;
    root.dataset['drawn'] = String(this.drawCount);
    root.dataset['bands'] = String(plot.layout.bands.length);
    // Bands a search leaves out (drawn faint), for tests and for anyone reading the page.
    let dimmed = 0;
    for (const mark of scene.marks)
      if (mark.type === 'bands') for (const flag of mark.dimmed ?? []) dimmed += flag;
    root.dataset['dimmedBands'] = String(dimmed);
    // The phase bands drawn, in plot pixels ("name:x0:x1 …"), for tests.
    root.dataset['phaseBands'] = scene.phaseBands
      .map((band) => `${band.name}:${band.x0.toFixed(1)}:${band.x1.toFixed(1)}`)
      .join(' ');
    this.plotMarks = marks;
    this.writeMarks();
    const largest = largestBandAtPeak(plot);
    if (largest === null) delete root.dataset['largestBand'];
    else root.dataset['largestBand'] = `${largest.x},${largest.y}`;
    const noStack = largestNoStackBand(plot);
    if (noStack === null) delete root.dataset['noStackBand'];
    else root.dataset['noStackBand'] = `${noStack.x},${noStack.y}`;
  }

  private drawOverlay(
    context: CanvasRenderingContext2D,
    size: CanvasSize,
    theme: TimelineTheme,
  ): void {
    const plot = this.plot!;
    const picture = overlayPicture(plot, {
      hoverHit: this.hoverHit,
      selectedRow: this.selectedRow,
      moment: this.moment,
      pointer: this.input.hoverPoint(),
      searchPoints: this.searchPointsFor(plot),
    });
    const root = this.elements.root;
    if (this.selectedRow === null) {
      delete root.dataset['selectedRow'];
      delete root.dataset['selectedDrawn'];
    } else {
      root.dataset['selectedRow'] = String(this.selectedRow);
      root.dataset['selectedDrawn'] = picture.selectedBand !== null ? 'band' : 'outline';
    }
    drawOverlay(context, size, plotCoordinates(plot), picture, theme);
    const momentShown =
      picture.momentX !== null && picture.momentX >= 0 && picture.momentX <= size.width;
    this.overlayMarks = new Set(momentShown ? ['moment'] : []);
    this.writeMarks();
  }

  /** What the layers drew, for tests: every kind must have its legend entry. */
  private writeMarks(): void {
    const marks = new Set([...this.plotMarks, ...this.overlayMarks]);
    this.elements.root.dataset['marks'] = [...marks].sort().join(' ');
  }

  // ---- hover and click -------------------------------------------------------------------------

  private updateHover(): void {
    const point = this.input.hoverPoint();
    const plot = this.plot;
    if (point === null || plot === null) {
      this.hoverHit = null;
      this.callbacks.onHover(null);
      return;
    }
    const hover = hoverAt(plot, point, this.phases);
    this.hoverHit = hover.hit;
    this.elements.canvas.style.cursor = hover.hit?.kind === 'allocation' ? 'pointer' : 'crosshair';
    this.callbacks.onHover(hover);
  }

  private click(point: PlotPoint): void {
    const plot = this.plot;
    if (this.data === null || plot === null) return;
    const { event, hit } = hitAt(plot, point);
    if (hit?.kind === 'allocation') this.callbacks.onSelectRow(hit.row);
    else this.callbacks.onMoment(event);
  }
}
