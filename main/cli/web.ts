/** `pixelfleet web` and `pixelfleet demo`: browser mode, serving the world until interrupted. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../app';
import { startHost } from '../host/server';
import { ensureRendererBuilt } from '../host/rendererBuild';
import { intOption, option, parseArgs, rejectUnknown } from './args';
import type { CliIo } from './index';

/** Runs browser mode; resolves with the exit code once SIGINT or SIGTERM stops it. */
export async function runWebCommand(argv: string[], io: CliIo & { home: string; demo: boolean }): Promise<number> {
  const args = parseArgs(argv, ['port', 'agents', 'home']);
  rejectUnknown(args, ['port', 'agents', 'home', 'demo']);
  const demo = io.demo || args.flags.has('demo');
  const port = intOption(args, 'port', 0, 65535);
  const agents = intOption(args, 'agents', 6, 500);
  let home = option(args, 'home') ? resolve(option(args, 'home')!) : io.home;
  if (demo && !option(args, 'home') && !io.env.PIXELFLEET_HOME) home = await mkdtemp(join(tmpdir(), 'pixelfleet-demo-'));

  const log = (message: string) => io.stderr(`${message}\n`);
  const rendererDir = await ensureRendererBuilt(log);
  const app = await createApp({ home, mode: 'web', demo: demo ? { agents } : undefined, env: io.env, log });
  const host = await startHost({ app, rendererDir, port, log });
  io.stdout(`Pixelfleet is running at ${host.url}\n`);
  io.stdout(`  data: ${home}${demo ? ` (demo fleet of ${agents} agents)` : ''}\n  Press Ctrl+C to stop.\n`);

  return new Promise((done) => {
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await host.close();
      await app.dispose();
      done(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  });
}
