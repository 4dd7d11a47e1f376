// `work.refresh` through the real app: a command that asks every source for fresh items; the items reach the
// stations with the next census, not in the command's answer.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../setup/app';

let root: string | null = null;
let app: App | null = null;
afterEach(async () => {
  await app?.dispose();
  if (root) await rm(root, { recursive: true, force: true });
  app = null;
  root = null;
});

describe('work.refresh', () => {
  it('fetches the sources again and the new item reaches the station with the next census', async () => {
    root = await mkdtemp(join(tmpdir(), 'pixelfleet-refresh-'));
    const backlog = join(root, 'backlog');
    await mkdir(backlog, { recursive: true });
    await mkdir(join(root, 'app'), { recursive: true });
    await writeFile(join(root, 'app', 'settings.json'), JSON.stringify({ workSources: [{ kind: 'markdown', dir: backlog }] }));
    const env = { HOME: root, CLAUDE_CONFIG_DIR: join(root, 'claude'), CODEX_HOME: join(root, 'codex'), XDG_DATA_HOME: join(root, 'data') };
    app = await createApp({ home: join(root, 'app'), mode: 'web', env, live: false, log: () => {} });
    await app.router.handle('agents.hire', { name: 'Tess', role: 'tester' });

    expect(await app.router.handle('work.refresh', {})).toEqual({ ok: true, value: { changed: false } });
    await writeFile(join(backlog, 'flaky.md'), '---\ntitle: Fix the flaky login test\nlabels: [tester]\n---\nIt fails one run in ten.\n');
    expect(await app.router.handle('work.refresh', {})).toEqual({ ok: true, value: { changed: true } });
    const snapshot = await app.fleet.read({ fresh: true });
    const tester = snapshot.stations.find((station) => station.role === 'tester');
    expect(tester?.backlog.items.map((item) => item.title)).toEqual(['Fix the flaky login test']);
  });

  it('is strict: a request with fields is refused', async () => {
    root = await mkdtemp(join(tmpdir(), 'pixelfleet-refresh-'));
    app = await createApp({ home: join(root, 'app'), mode: 'web', env: { HOME: root }, live: false, log: () => {} });
    expect(await app.router.handle('work.refresh', { label: 'tester' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
