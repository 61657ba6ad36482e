// What the fragmentation chart is handed to draw: the device and its axis mode, and the samples
// (the pure geometry that turns them into columns and points is @shared/chart/fragmentation-*,
// shared with the exported SVG).

import type { XMode } from '@shared/chart/event-axis';
import type { FragmentationSamples } from '@shared/chart/fragmentation-points';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';

export type { FragmentationWindow } from '@shared/chart/fragmentation-layout';

export interface FragmentationData extends FragmentationSamples {
  device: AnalyzedDevice;
  mode: XMode;
}
