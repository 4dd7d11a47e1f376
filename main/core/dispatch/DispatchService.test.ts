/**
 * The changed-file count of a dispatch's worktree over a real git repository, a Markdown backlog and a stand-in Claude
 * Code in a private tmux server: read when the dispatch is made, then at most every 10 s (the service's clock is moved
 * by hand, so the test never waits), and announced to the page only when it changed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DispatchView } from '../../../shared/dispatch';
import { createApp } from '../../setup/app';
import { userLine } from '../../dev/testing/claudeJournal';
import { cli, launchFixture, tmux } from '../../dev/testing/launchStandins';
import { LaunchService } from '../launch/LaunchService';
import { DispatchService } from './DispatchService';

if (!tmux) console.log('dispatch service tests skipped: tmux is not on PATH (apt-get install tmux)');

const fixture = launchFixture('pixelfleet-dispatch-service-');
afterAll(() => fixture.dispose());

const unused = () => Promise.reject(new Error('a launch dispatch does not type into a terminal'));

describe.skipIf(!tmux)('DispatchService over real git', () => {
  it('reads a worktree’s changed files at dispatch, then no sooner than 10 s later, and announces only a change', async () => {
    const made = fixture.setup(userLine({ sessionId: 'SESSION', at: new Date().toISOString() }, 'Start.') + '\n');
    const { env } = made;
    const home = env.PIXELFLEET_HOME!;
    mkdirSync(path.join(home, 'backlog'), { recursive: true });
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ workSources: [{ kind: 'markdown', dir: 'backlog' }] }));
    writeFileSync(path.join(home, 'backlog', 'cache.md'), '---\nlabels: [builder]\n---\n# Cache parsed config files\n');
    const repo = path.join(made.dir, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
    git('init', '-q');
    writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git('add', '.');
    git('commit', '-q', '-m', 'a');

    const app = await createApp({ home, mode: 'web', env, live: false, log: () => {} });
    let clock = 1_000_000;
    const announced: DispatchView[][] = [];
    const launcher = new LaunchService({ fleet: app.fleet, personas: app.personas, env, terminal: null });
    const service = new DispatchService({
      home,
      env,
      itemsWithId: (id) => app.work.itemsWithId(id),
      markdownFolders: [path.join(home, 'backlog')],
      personas: app.personas,
      fleet: () => app.fleet.read({ fresh: true }),
      launch: (request) => launcher.launch(request),
      locate: unused,
      send: unused,
      worktreeDir: null,
      emit: (dispatches) => announced.push(dispatches),
      now: () => clock,
    });
    try {
      const result = await service.dispatch({ itemId: 'cache.md', harness: 'claude', role: 'builder', name: 'Ada', cwd: repo, worktree: true });
      expect(result.launch?.seated).toBe(true);
      expect(announced).toHaveLength(1);
      expect(announced[0]).toEqual([
        { itemId: 'cache.md', source: 'markdown', title: 'Cache parsed config files', personaId: result.personaId, persona: 'Ada', at: expect.any(String), branch: 'pf/cache-parsed-config-files', worktree: result.worktree, changedFiles: 0 },
      ]);

      writeFileSync(path.join(result.worktree!, 'a.txt'), 'changed\n');
      writeFileSync(path.join(result.worktree!, 'new.txt'), 'new\n');
      clock += 5_000;
      await service.refreshChanges();
      expect(announced).toHaveLength(1);
      expect((await service.views())[0].changedFiles).toBe(0);
      clock += 5_000;
      await service.refreshChanges();
      expect(announced).toHaveLength(2);
      expect(announced[1][0].changedFiles).toBe(2);
      clock += 10_000;
      await service.refreshChanges();
      expect(announced).toHaveLength(2);
    } finally {
      service.dispose();
      await app.dispose();
      await cli(['agents', 'stop', 'Ada'], env);
    }
  }, 60_000);
});
