import { describe, expect, it } from 'vitest';
import { ranksFinding, type RankFigures } from './ranks';

function rank(rankNumber: number, peakActiveBytes: number) {
  const figures: RankFigures = {
    device: 0,
    peakActiveBytes,
    peakReservedBytes: null,
    oomEvent: null,
    ooms: 0,
    traceEntries: 10,
  };
  return { rank: rankNumber, figures };
}

describe('the highest rank', () => {
  it('is the one with the highest peak active, marked when no other shares it', () => {
    const finding = ranksFinding([rank(0, 100), rank(1, 300), rank(2, 200)]);
    expect(finding.highestRank).toBe(1);
    expect(finding.highestShared).toBe(false);
  });

  it('is not marked when ranks share the peak (eight copies of one run are alike)', () => {
    const finding = ranksFinding([rank(0, 300), rank(1, 300), rank(2, 200)]);
    expect(finding.highestRank).toBe(0);
    expect(finding.highestShared).toBe(true);
    expect(ranksFinding([0, 1, 2, 3].map((r) => rank(r, 5))).highestShared).toBe(true);
  });
});
