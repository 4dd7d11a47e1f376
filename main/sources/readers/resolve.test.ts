// Each reader resolves one session by its id under its own configured home, as discovery would list it, without the
// listing's limit: the basis of seat confinement for hires, seat moves and stored seats.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeReader } from './claude';
import { createCodexReader } from './codex';
import { createOpenCodeReader } from './opencode';
import { headerLine, tempHomes, threadId, writeRollout } from '../../dev/testing/codexRollout';
import { perTestCleanups } from '../../dev/testing/cleanups';
import { StoreWriter } from '../../dev/testing/opencodeStore';

const { tempDir } = perTestCleanups();
const homes = tempHomes();
afterEach(homes.removeAll);

describe('resolving a session by id', () => {
  it('Claude: finds an old journal the listing leaves out, and refuses ids that are not plain file stems', async () => {
    const home = tempDir();
    const folder = join(home, 'projects', '-work-app');
    await mkdir(folder, { recursive: true });
    for (let index = 0; index < 3; index++) await writeFile(join(folder, `s-new-${index}.jsonl`), '\n');
    await writeFile(join(folder, 's-old.jsonl'), '\n');
    await writeFile(join(folder, 'agent-a1.jsonl'), '\n');
    await utimes(join(folder, 's-old.jsonl'), new Date(0), new Date(0));
    const reader = createClaudeReader({ home });
    expect((await reader.discover({ limit: 3 })).map((entry) => entry.id)).not.toContain('claude:s-old');
    expect((await reader.resolve('s-old'))?.seat).toEqual({ harness: 'claude', home, sessionId: 's-old', cwd: null, path: join(folder, 's-old.jsonl') });
    for (const id of ['s-missing', 'agent-a1', '../projects/-work-app/s-old', '..', '']) expect(await reader.resolve(id)).toBeNull();
  });

  it('Codex: finds a session rollout by its thread id in any date folder; children, helpers and unsafe ids do not resolve', async () => {
    const home = await homes.make();
    const parent = threadId(1);
    const child = threadId(2);
    const helper = threadId(3);
    const path = await writeRollout(home, '2024/01/02', '2024-01-02T10-00-00', parent, [headerLine({ id: parent, timestamp: '2024-01-02T10:00:00Z', cwd: '/work/app' })]);
    await writeRollout(home, '2026/05/01', '2026-05-01T10-00-00', child, [headerLine({ id: child, timestamp: '2026-05-01T10:00:00Z', parent })]);
    await writeRollout(home, '2026/05/01', '2026-05-01T11-00-00', helper, [headerLine({ id: helper, timestamp: '2026-05-01T11:00:00Z', source: { subagent: 'review' } })]);
    const reader = createCodexReader({ home });
    expect((await reader.resolve(parent))?.seat).toEqual({ harness: 'codex', home, sessionId: parent, cwd: '/work/app', path });
    for (const id of [child, helper, threadId(9), '../x', 'a/b']) expect(await reader.resolve(id)).toBeNull();
  });

  it('OpenCode: finds a top-level session by id past the listing limit; a child session or an unknown id does not resolve', async () => {
    const db = join(tempDir(), 'opencode.db');
    const writer = new StoreWriter(db);
    writer.session('ses_old', { time: 1 });
    for (let index = 0; index < 5; index++) writer.session(`ses_new${index}`, { time: 1000 + index });
    writer.session('ses_child', { parent: 'ses_old', time: 2000 });
    writer.close();
    const reader = createOpenCodeReader({ db });
    expect((await reader.discover({ limit: 5 })).map((entry) => entry.id)).not.toContain('opencode:ses_old');
    expect((await reader.resolve('ses_old'))?.seat).toEqual({ harness: 'opencode', home: db, sessionId: 'ses_old', cwd: '/work/repo', path: null });
    for (const id of ['ses_child', 'ses_missing', "' OR 1=1 --"]) expect(await reader.resolve(id)).toBeNull();
  });
});
