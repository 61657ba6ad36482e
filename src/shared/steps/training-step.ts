// One training step of a trace, however it was found (./find-steps.ts: annotations or the curve).

export interface TrainingStep {
  /** 0-based among the steps found. */
  index: number;
  /** The annotation's name (`ProfilerStep#12`), or "step N" for steps found in the curve. */
  name: string;
  /** First event of the step. */
  startEvent: number;
  /** Last event of the step (inclusive). */
  endEvent: number;
}
