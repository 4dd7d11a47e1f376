// The host restarted while the usage background pass is inside a journal: the second host resumes from the
// checkpoint and its totals equal an independent whole-file count (not doubled, nothing lost).
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../setup/app';
import { writeJournalForBench } from '../../../dev/demo/benchJournal';
import { parseRecord } from './parseLine';
import { CHECKPOINT_FILE } from './checkpoint';
import { createClaudeUsage, foldClaudeUsage } from './usageFold';

const SESSION = 'b0000000-0000-4000-8000-000000000000';
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function ask(app: App, since?: 'today') {
  const answer = await app.router.handle('usage.read', since ? { since } : {});
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as { seats: { totals: Record<string, number>; partial: boolean }[] };
}

describe('the usage pass across a host restart', () => {
  it('resumes mid-pass from the checkpoint and ends with exact totals', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pixelfleet-usage-restart-'));
    dirs.push(dir);
    const folder = path.join(dir, 'claude', 'projects', '-bench-work');
    await mkdir(folder, { recursive: true });
    const journal = path.join(folder, `${SESSION}.jsonl`);
    await writeJournalForBench({ path: journal, bytes: 48 * 1024 * 1024 });
    const env = { HOME: '/nonexistent-home', CLAUDE_CONFIG_DIR: path.join(dir, 'claude'), CODEX_HOME: path.join(dir, 'codex'), XDG_DATA_HOME: path.join(dir, 'data') };
    const home = path.join(dir, 'home');

    // The whole file counted independently: every line parsed, the same rules.
    const expected = createClaudeUsage();
    for (const line of (await readFile(journal, 'utf8')).split('\n')) {
      const record = parseRecord(line);
      if (record !== null && record !== 'invalid') foldClaudeUsage(expected, record);
    }

    const first = await createApp({ home, mode: 'web', env, live: false, log: () => undefined });
    const opened = await first.router.handle('seats.open', { candidateId: `claude:${SESSION}`, name: 'Ada' });
    expect(opened.ok).toBe(true);
    expect((await ask(first)).seats[0].partial).toBe(true);
    // Stopped while the pass is inside the journal (48 MiB at 1 MiB a chunk, stopped at once).
    await first.dispose();
    const checkpoint = JSON.parse(await readFile(path.join(home, CHECKPOINT_FILE), 'utf8')) as { files: { path: string; offset: number }[] };
    const saved = checkpoint.files.find((file) => file.path === journal);
    const size = (await readFile(journal)).length;
    expect(saved?.offset).toBeGreaterThan(0);
    expect(saved?.offset).toBeLessThan(size);

    const second = await createApp({ home, mode: 'web', env, live: false, log: () => undefined });
    try {
      let report = await ask(second);
      for (let round = 0; round < 2_000 && report.seats[0].partial; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        report = await ask(second);
      }
      expect(report.seats[0].partial).toBe(false);
      const sum = expected.main.sum;
      expect(report.seats[0].totals).toEqual({ input: sum.input, output: sum.output, cacheRead: sum.cacheRead, cacheWrite: sum.cacheWrite });
    } finally {
      await second.dispose();
    }
  }, 120_000);
});
