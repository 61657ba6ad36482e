import { describe, expect, it } from 'vitest';
import {
  chartFileName,
  allocationsFileName,
  MAX_FILE_NAME_LENGTH,
  reportFileName,
  snapshotBaseName,
} from './file-names';

describe('export file names', () => {
  it('drop the snapshot extensions', () => {
    expect(snapshotBaseName('run.pickle')).toBe('run');
    expect(snapshotBaseName('run.pkl.gz')).toBe('run');
    expect(snapshotBaseName('trace_plot.html')).toBe('trace_plot');
    expect(snapshotBaseName('memory_viz.json.gz')).toBe('memory_viz');
    expect(snapshotBaseName('my.model.v2.pickle')).toBe('my.model.v2');
    expect(snapshotBaseName('snapshot')).toBe('snapshot');
    expect(snapshotBaseName('/data/runs/run.pickle')).toBe('run');
  });

  it('name each export after the snapshot', () => {
    expect(reportFileName('demo-snapshot.pickle')).toBe('demo-snapshot.allocscope-report.json');
    expect(chartFileName('run.pickle', 1, 'timeline', 'png')).toBe('run.cuda1.timeline.png');
    expect(chartFileName('run.pickle', 0, 'segments', 'svg')).toBe('run.cuda0.segments.svg');
    expect(chartFileName('run.pickle', 0, 'fragmentation', 'png')).toBe(
      'run.cuda0.fragmentation.png',
    );
    expect(chartFileName('run.pickle', 3, 'oom', 'svg')).toBe('run.cuda3.oom.svg');
    expect(allocationsFileName('run.pickle.gz', 2, 1234)).toBe(
      'run.cuda2.allocations.after-event-1234.csv',
    );
    expect(allocationsFileName('run.pickle', 0, -1)).toBe('run.cuda0.allocations.before-trace.csv');
    expect(allocationsFileName('run.pickle', 0, null)).toBe('run.cuda0.allocations.csv');
  });

  it('are safe on every desktop file system', () => {
    expect(snapshotBaseName('a<b>c:d"e|f?g*h.pickle')).toBe('a_b_c_d_e_f_g_h');
    expect(snapshotBaseName('tab\tname.pickle')).toBe('tab_name');
    expect(snapshotBaseName('.pickle')).toBe('snapshot');
    expect(snapshotBaseName('...pickle')).toBe('snapshot');
    expect(snapshotBaseName('con.pickle')).toBe('snapshot-con');
    expect(snapshotBaseName(' trailing. .pickle')).toBe('trailing');
  });

  it('fit in one file name, cutting the snapshot name, not the suffix', () => {
    const long = `${'é'.repeat(400)}.pickle`;
    const name = reportFileName(long);
    expect(name.length).toBeLessThanOrEqual(MAX_FILE_NAME_LENGTH);
    expect(name.endsWith('.allocscope-report.json')).toBe(true);
    // Whole code points only.
    expect(reportFileName(`${'😀'.repeat(200)}.pickle`)).toMatch(
      /^(😀)+\.allocscope-report\.json$/u,
    );
  });
});
