import { describe, expect, it } from 'vitest';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import { describeOom, oomNoticeDevice } from './oom-notice-text';

describe('OOM notice', () => {
  const oom = testDevice();
  const calm = { ...testDevice(), device: 1, ooms: [] };

  it('is about the selected device when it ran out of memory, else the first that did', () => {
    const other = { ...testDevice(), device: 2 };
    expect(oomNoticeDevice([oom, calm, other], other)).toBe(other);
    expect(oomNoticeDevice([calm, oom, other], calm)).toBe(oom);
    expect(oomNoticeDevice([calm, oom], null)).toBe(oom);
    expect(oomNoticeDevice([calm], calm)).toBeNull();
  });

  it('says where the first OOM was, what it asked for and how many more there were', () => {
    expect(describeOom(oom)).toBe('at event 1: 1.0 GiB requested.');
    const twice = { ...oom, ooms: [...oom.ooms, { ...oom.ooms[0]!, eventIndex: 3 }] };
    expect(describeOom(twice)).toBe('at event 1: 1.0 GiB requested (and 1 more).');
    expect(describeOom(calm)).toBe('');
  });
});
