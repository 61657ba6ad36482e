// The rows every description of an allocation shares (tooltip and panel): when it was made and
// freed, how long it lived, on which stream. Rendered inside the caller's <dl>.

import type { JSX } from 'react';
import type { AllocationFacts } from './allocation-facts';

export function AllocationLifetimeRows({ facts }: { facts: AllocationFacts }): JSX.Element {
  return (
    <>
      <dt>allocated</dt>
      <dd>{facts.allocText}</dd>
      <dt>freed</dt>
      <dd>{facts.freeText}</dd>
      <dt>lifetime</dt>
      <dd>{facts.lifetimeText}</dd>
      <dt>stream</dt>
      <dd className="tl-mono">{facts.stream}</dd>
    </>
  );
}
