/** Live updates over a real journal being appended: every append reaches listeners without waiting for the poll. */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../../shared/schemas';
import { PersonaService } from '../personas/PersonaService';
import { createClaudeReader } from '../../sources/readers/claude';
import { FleetService } from './FleetService';
import { BUSY_FLEET_SEATS, LiveUpdates, MAX_REFRESH_INTERVAL_MS, MIN_REFRESH_INTERVAL_MS, refreshIntervalMs } from './LiveUpdates';

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

  it('spaces refreshes by the fleet\'s size: every 250 ms up to 50 seats, then in proportion, 500 ms from 100 on', () => {
    expect(refreshIntervalMs(0)).toBe(MIN_REFRESH_INTERVAL_MS);
    expect(refreshIntervalMs(BUSY_FLEET_SEATS)).toBe(MIN_REFRESH_INTERVAL_MS);
    expect(refreshIntervalMs(75)).toBe(375);
    expect(refreshIntervalMs(2 * BUSY_FLEET_SEATS)).toBe(MAX_REFRESH_INTERVAL_MS);
    expect(refreshIntervalMs(500)).toBe(MAX_REFRESH_INTERVAL_MS);
  });

  it('in a fleet of 100 seats, a busy seat\'s changes come at most twice a second; the first after a quiet spell at once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-live-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const folder = join(dir, 'claude', 'projects', '-p');
    await mkdir(folder, { recursive: true });
    const personas = new PersonaService({ file: join(dir, 'personas.json') });
    cleanups.push(async () => personas.dispose());
    const paths: string[] = [];
    for (let index = 0; index < 100; index++) {
      const path = join(folder, `s${index}.jsonl`);
      await writeFile(path, `${JSON.stringify({ type: 'user', sessionId: `s${index}`, message: { role: 'user', content: 'hi' } })}\n`);
      await personas.hire({ name: `Agent ${index}`, seat: { harness: 'claude', home: join(dir, 'claude'), sessionId: `s${index}`, path } });
      paths.push(path);
    }
    const fleet = new FleetService({ personas, readers: { claude: createClaudeReader({ home: join(dir, 'claude') }) } });
    expect((await fleet.read()).seats).toHaveLength(100);
    const live = new LiveUpdates({ fleet, pollMs: 3_600_000 });
    await live.start();
    cleanups.push(() => live.dispose());
    await new Promise((done) => setTimeout(done, 700));

    const changes: number[] = [];
    const off = fleet.onChange(() => changes.push(performance.now()));
    cleanups.push(async () => off());
    // A lone append after a quiet spell is read at once.
    const first = performance.now();
    await appendFile(paths[0], agentLine('toolu_lone'));
    await expect.poll(() => changes.length, { timeout: 3000 }).toBeGreaterThan(0);
    expect(changes[0] - first).toBeLessThan(MAX_REFRESH_INTERVAL_MS);
    await new Promise((done) => setTimeout(done, 700));
    // A refresh that found nothing new (the safety poll over a quiet fleet) holds up no change after it.
    changes.length = 0;
    live.schedule();
    await new Promise((done) => setTimeout(done, 20));
    const afterPoll = performance.now();
    await appendFile(paths[1], agentLine('toolu_after_poll'));
    await expect.poll(() => changes.length, { timeout: 3000 }).toBeGreaterThan(0);
    expect(changes[0] - afterPoll).toBeLessThan(MAX_REFRESH_INTERVAL_MS * 0.8);
    await new Promise((done) => setTimeout(done, 700));
    // Then a burst: an append every 40 ms for 2 s, spread over the seats.
    changes.length = 0;
    for (let step = 0; step < 50; step++) {
      await appendFile(paths[step % 100], agentLine(`toolu_burst_${step}`));
      await new Promise((done) => setTimeout(done, 40));
    }
    await new Promise((done) => setTimeout(done, 2 * MAX_REFRESH_INTERVAL_MS));
    expect(changes.length).toBeGreaterThan(2);
    const gaps = changes.slice(1).map((at, index) => at - changes[index]);
    // Timers may fire a little early on a loaded machine; never anywhere near the 250 ms of a small fleet.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MAX_REFRESH_INTERVAL_MS * 0.9);
  });
});
