// A turn-done whose own time is implausible (issue 36): its since is unknown, and the seat still idles, measured from
// the journal's last write. A real Claude journal read by the real reader in a real fleet.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeReader } from '../../sources/readers/claude';
import { PersonaService } from '../personas/PersonaService';
import { FleetService } from './FleetService';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('a turn-done with an implausible time', () => {
  it.each([['1970-01-01T00:00:00.000Z'], ['9999-12-31T23:59:59.999Z'], ['nope']])('at %s: needs-you while the journal is fresh, idle once it has been quiet 30 min, since unknown', async (at) => {
    const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-implausible-turn-'));
    dirs.push(dir);
    const claudeHome = join(dir, 'claude');
    const folder = join(claudeHome, 'projects', '-work-app');
    await mkdir(folder, { recursive: true });
    const journal = join(folder, 'sess-t.jsonl');
    const line = (value: object) => `${JSON.stringify({ sessionId: 'sess-t', cwd: '/work/app', timestamp: at, ...value })}\n`;
    await writeFile(
      journal,
      line({ type: 'user', message: { role: 'user', content: 'go' } }) +
        line({ type: 'assistant', message: { id: 'm1', role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'done' }] } }) +
        line({ type: 'system', subtype: 'turn_duration', durationMs: 1000 }),
    );
    const personas = new PersonaService({ file: join(dir, 'home', 'personas.json') });
    await personas.hire({ name: 'Ada', seat: { harness: 'claude', home: claudeHome, sessionId: 'sess-t', cwd: '/work/app', path: journal } });
    const fleet = new FleetService({ personas, readers: { claude: createClaudeReader({ home: claudeHome }) } });
    try {
      const fresh = await fleet.read({ fresh: true });
      expect(fresh.seats[0].activity).toMatchObject({ state: 'needs-you', why: 'turn-done', since: null });
      const quiet = (Date.now() - 31 * 60_000) / 1000;
      await utimes(journal, quiet, quiet);
      const later = await fleet.read({ fresh: true });
      expect(later.seats[0].activity).toMatchObject({ state: 'idle', since: null });
    } finally {
      fleet.dispose();
      personas.dispose();
    }
  });
});
