import { describe, expect, it } from 'vitest';
import { HarnessSchema, type Candidate } from '../../../shared/schemas';
import { createReaders, HARNESSES, harnessName, harnessOf } from './registry';

const homes = { claude: '/nowhere/.claude', codex: '/nowhere/.codex', opencodeDb: undefined, opencodeDataDir: '/nowhere/opencode' };

function candidate(harness: Candidate['harness'], path: string | null): Candidate {
  return { id: `${harness}:s`, harness, seat: { harness, home: '/h', sessionId: 's', cwd: null, path }, cwdHint: null, lastActivity: '2026-05-01T10:00:00.000Z', size: 1 };
}

describe('the harness registry', () => {
  it('has one descriptor for every harness of the contract, under its own id', () => {
    expect(Object.keys(HARNESSES).sort()).toEqual([...HarnessSchema.options].sort());
    for (const harness of HarnessSchema.options) expect(harnessOf(harness).id).toBe(harness);
    expect(HarnessSchema.options.map(harnessName)).toEqual(['Claude Code', 'Codex', 'OpenCode']);
  });

  it('builds each reader from the resolved homes, or only those named', () => {
    const all = createReaders(homes);
    expect(Object.keys(all).sort()).toEqual([...HarnessSchema.options].sort());
    for (const [harness, reader] of Object.entries(all)) expect(reader?.harness).toBe(harness);
    const only = createReaders(homes, { only: ['claude'] });
    expect(Object.keys(only)).toEqual(['claude']);
    for (const reader of [...Object.values(all), ...Object.values(only)]) reader?.dispose();
  });

  it('lets each harness say whether a session without a recorded folder started in one (Claude by its escaped folder)', () => {
    expect(harnessOf('claude').startedIn(candidate('claude', '/h/projects/-home-me-src-app/s.jsonl'), '/home/me/src/app')).toBe(true);
    expect(harnessOf('claude').startedIn(candidate('claude', '/h/projects/-home-me-src-other/s.jsonl'), '/home/me/src/app')).toBe(false);
    expect(harnessOf('claude').startedIn(candidate('claude', null), '/home/me/src/app')).toBe(false);
    expect(harnessOf('codex').startedIn(candidate('codex', '/h/projects/-home-me-src-app/s.jsonl'), '/home/me/src/app')).toBe(false);
  });

  it('names the CLI flags each harness reads', () => {
    expect(HarnessSchema.options.map((harness) => [harness, harnessOf(harness).cliTarget, harnessOf(harness).cliFlags])).toEqual([
      ['claude', 'path', []],
      ['codex', 'path', ['codex-home']],
      ['opencode', 'id', ['db']],
    ]);
  });
});
