/** Live updates over a real journal being appended: every append reaches listeners without waiting for the poll. */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../../shared/schemas';
import { PersonaService } from '../personas/PersonaService';
import { createClaudeReader } from '../../sources/readers/claude';
import { FleetService } from './FleetService';
import { LiveUpdates } from './LiveUpdates';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const agentLine = (id: string) =>
  `${JSON.stringify({ type: 'assistant', sessionId: 's1', timestamp: new Date().toISOString(), message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Agent', input: { description: id } }] } })}\n`;

describe('live updates', () => {
  it('sees each of several quick appends, though each follows a read of the one before', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-live-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const folder = join(dir, 'claude', 'projects', '-p');
    await mkdir(folder, { recursive: true });
    const path = join(folder, 's1.jsonl');
    await writeFile(path, `${JSON.stringify({ type: 'user', sessionId: 's1', message: { role: 'user', content: 'hi' } })}\n`);
    const personas = new PersonaService({ file: join(dir, 'personas.json') });
    cleanups.push(async () => personas.dispose());
    await personas.hire({ name: 'Ada', seat: { harness: 'claude', home: join(dir, 'claude'), sessionId: 's1', path } });
    const fleet = new FleetService({ personas, readers: { claude: createClaudeReader({ home: join(dir, 'claude') }) } });
    await fleet.read();
    // The poll is an hour away: only file events can bring the changes in.
    const live = new LiveUpdates({ fleet, pollMs: 3_600_000 });
    await live.start();
    cleanups.push(() => live.dispose());
    await new Promise((done) => setTimeout(done, 200));

    const running = () =>
      new Promise<number>((resolve) => {
        const off = fleet.onChange((snapshot: FleetSnapshot) => {
          off();
          resolve(snapshot.seats[0].subagents?.running ?? -1);
        });
      });
    for (let count = 1; count <= 4; count++) {
      const next = running();
      await appendFile(path, agentLine(`toolu_${count}`));
      const seen = await Promise.race([next, new Promise<number>((resolve) => setTimeout(() => resolve(-2), 3000))]);
      expect(seen).toBe(count);
    }
  });
});
