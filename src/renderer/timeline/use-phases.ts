// The device's phases (forward, backward, optimizer, other: @shared/steps/phases.ts) for the
// timeline's ruler: at once when the decode worker found them (the device the page opens on),
// else found when the page is next idle after the first paint: finding them classifies every
// allocation's stack (hundreds of ms on large files), which the first picture and the first zoom
// must not wait for. Cached in the device's DerivedCache, so the Steps view and the export read
// the same ones.

import { useEffect, useState } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { builtPhases, phasesOf, type Phase } from '@shared/steps/phases';

const NO_PHASES: readonly Phase[] = [];
/** Where the page has no idle callbacks: a moment after the first paint. */
const IDLE_FALLBACK_MS = 250;

export function usePhases(snapshot: AnalyzedSnapshot, device: AnalyzedDevice): readonly Phase[] {
  const [found, setFound] = useState<{ device: AnalyzedDevice; phases: readonly Phase[] } | null>(
    null,
  );
  // Found already: drawn with the first picture, not in a second one (a whole new layout).
  const built = builtPhases(device);
  useEffect(() => {
    if (builtPhases(device) !== null) return;
    const find = (): void => setFound({ device, phases: phasesOf(snapshot, device).phases });
    if (typeof requestIdleCallback === 'function') {
      const idle = requestIdleCallback(find);
      return () => cancelIdleCallback(idle);
    }
    const timer = setTimeout(find, IDLE_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [snapshot, device]);
  if (built !== null) return built.phases;
  return found?.device === device ? found.phases : NO_PHASES;
}
