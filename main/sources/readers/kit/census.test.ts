// The record census kit (issue 29): names counted with the newest version, bounded lists, outside the tested range
// only for newer or unstated versions, and the seat's activity uncertain while an unknown kind is the newest record.
import { describe, expect, it } from 'vitest';
import { compareVersions, outsideTested } from '../../../../shared/drift';
import { driftFields } from '../../../core/fleet/seatDrift';
import { censusView, createCensus, noteFields, noteKind, noteVersion, type KnownFormat } from './census';

const KNOWN: KnownFormat = { kinds: new Set(['user']), fields: new Set(['type', 'version']), tested: { from: '1.0.0', to: '2.1.114' } };

describe('the record census', () => {
  it('compares versions by their numbers, a pre-release before its release', () => {
    expect(compareVersions('2.1.9', '2.1.114')).toBeLessThan(0);
    expect(compareVersions('0.200.0', '0.124.0')).toBeGreaterThan(0);
    expect(compareVersions('1.2.0-alpha', '1.2.0')).toBeLessThan(0);
    expect(outsideTested('2.1.114', KNOWN.tested)).toBe(false);
    expect(outsideTested('2.1.115', KNOWN.tested)).toBe(true);
    expect(outsideTested(null, KNOWN.tested)).toBe(true);
  });

  it('counts unknown kinds and fields by name with the newest version, and says nothing when all is known', () => {
    const census = createCensus();
    noteVersion(census, '2.1.100');
    noteKind(census, KNOWN, 'user');
    noteFields(census, KNOWN, { type: 'user', version: '2.1.100' });
    expect(censusView(census, KNOWN)).toEqual({ version: '2.1.100', tested: KNOWN.tested });
    noteVersion(census, '2.2.0');
    noteKind(census, KNOWN, 'handoff');
    noteKind(census, KNOWN, 'handoff');
    noteFields(census, KNOWN, { type: 'x', renamed: 1 });
    const drift = censusView(census, KNOWN).drift!;
    expect(drift.kinds).toEqual([{ name: 'handoff', count: 2, version: '2.2.0' }]);
    expect(drift.fields).toEqual([{ name: 'renamed', count: 1, version: '2.2.0' }]);
    expect(drift.outside).toBe(true);
    expect(drift.newestUnknown).toBe(true);
    noteKind(census, KNOWN, 'user');
    expect(censusView(census, KNOWN).drift!.newestUnknown).toBe(false);
  });

  it('keeps at most 32 names per list and counts the rest in `more`', () => {
    const census = createCensus();
    for (let index = 0; index < 40; index++) noteKind(census, KNOWN, `kind-${index}`);
    const drift = censusView(census, KNOWN).drift!;
    expect(drift.kinds).toHaveLength(32);
    expect(drift.more).toBe(8);
  });

  it('a seat whose newest record is of an unknown kind shows its activity as uncertain, and carries the drift', () => {
    const census = createCensus();
    noteVersion(census, '3.0.0');
    noteKind(census, KNOWN, 'handoff');
    const working = { state: 'working' as const, certain: true, since: '2027-01-01T00:00:00.000Z' };
    const fields = driftFields(working, censusView(census, KNOWN));
    expect(fields.activity).toEqual({ ...working, certain: false });
    expect(fields.drift?.kinds.map((kind) => kind.name)).toEqual(['handoff']);
    expect(driftFields(working, { version: '2.0.0', tested: KNOWN.tested })).toEqual({ activity: working });
  });
});
