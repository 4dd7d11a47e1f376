import { describe, expect, it } from 'vitest';
import type { DispatchView } from '../../shared/dispatch';
import { changedFilesText } from '../panels/dispatchLine';
import { dispatchesOfAgent, dispatchOfItem } from './dispatchActions';

const view = (itemId: string, personaId: string, at: string, source: DispatchView['source'] = 'markdown'): DispatchView => ({
  itemId,
  source,
  title: itemId,
  personaId,
  persona: personaId,
  at,
  branch: null,
  worktree: null,
  changedFiles: null,
});

describe('dispatches in the page', () => {
  it('finds an item’s dispatch by source and id, and an agent’s dispatches newest first', () => {
    const all = [view('a.md', 'p1', '2026-01-01T00:00:00Z'), view('a.md', 'p2', '2026-01-02T00:00:00Z', 'github'), view('b.md', 'p1', '2026-01-03T00:00:00Z')];
    expect(dispatchOfItem(all, { source: 'github', id: 'a.md' })?.personaId).toBe('p2');
    expect(dispatchOfItem(all, { source: 'linear', id: 'a.md' })).toBeNull();
    expect(dispatchesOfAgent(all, 'p1').map((entry) => entry.itemId)).toEqual(['b.md', 'a.md']);
    expect(dispatchesOfAgent(all, 'p3')).toEqual([]);
  });

  it('says an unknown changed-file count as "?", never 0', () => {
    expect(changedFilesText(null)).toBe('? files changed');
    expect(changedFilesText(0)).toBe('0 files changed');
    expect(changedFilesText(1)).toBe('1 file changed');
  });
});
