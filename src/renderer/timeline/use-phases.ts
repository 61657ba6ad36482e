// The device's phases (forward, backward, optimizer, other: @shared/steps/phases.ts) for the
// timeline's ruler, found after the first paint: finding them classifies every allocation's stack,
// which the timeline's first picture must not wait for. Cached in the device's DerivedCache, so
// the Steps view and the export read the same ones.

import { useEffect, useState } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { phasesOf, type Phase } from '@shared/steps/phases';

const NO_PHASES: readonly Phase[] = [];

export function usePhases(view: AnalyzedSnapshot, device: AnalyzedDevice): readonly Phase[] {
  const [found, setFound] = useState<{ device: AnalyzedDevice; phases: readonly Phase[] } | null>(
    null,
  );
  useEffect(() => {
    const timer = setTimeout(() => setFound({ device, phases: phasesOf(view, device).phases }), 0);
    return () => clearTimeout(timer);
  }, [view, device]);
  return found?.device === device ? found.phases : NO_PHASES;
}
