// How a picture's title line names its moment ("the state after event e", -1 = before the first
// entry): one wording for every exported picture that shows one moment.

import { formatEventTick } from '../chart/axis-format';

export function momentTitle(moment: number): string {
  return moment < 0
    ? 'moment: before the first event'
    : `moment: after event ${formatEventTick(moment)}`;
}
