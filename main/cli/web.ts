/** `pixelfleet web` and `pixelfleet demo`: browser mode, serving the world until interrupted. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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
  rejectUnknown(args, ['port', 'agents', 'home', 'demo', 'open', 'no-open']);
  const demo = io.demo || args.flags.has('demo');
  const port = intOption(args, 'port', 0, 65535);
  const agents = intOption(args, 'agents', 6, 500);
  let home = option(args, 'home') ? resolve(option(args, 'home')!) : io.home;
  // The demo's throwaway home goes away with it; a home the owner named stays.
  const throwaway = demo && !option(args, 'home') && !io.env.PIXELFLEET_HOME;
  if (throwaway) home = await mkdtemp(join(tmpdir(), 'pixelfleet-demo-'));

  const log = (message: string) => io.stderr(`${message}\n`);
  const rendererDir = await ensureRendererBuilt(log);
  const app = await createApp({ home, mode: 'web', demo: demo ? { agents } : undefined, env: io.env, log });
  let host;
  try {
    host = await startHost({ app, rendererDir, port, log });
  } catch (error) {
    await app.dispose();
    if (throwaway) await rm(home, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr(
      code === 'EADDRINUSE'
        ? `pixelfleet: port ${port} on 127.0.0.1 is in use; pick another with --port, or leave it out for a free one.\n`
        : `pixelfleet: could not serve the world: ${(error as Error).message}\n`,
    );
    return 1;
  }
  io.stdout(`Pixelfleet is running at ${host.url}\n`);
  io.stdout(`  data: ${home}${demo ? ` (demo fleet of ${agents} agents${throwaway ? "; removed when you stop" : ""})` : ''}\n  Press Ctrl+C to stop.\n`);
  // `demo` opens the world itself where there is a screen; `web` only prints the address unless asked.
  const open = args.flags.has('open') || (io.demo && !args.flags.has('no-open') && hasScreen(io.env));
  if (open) openInBrowser(host.url, log);

  return new Promise((done) => {
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await host.close();
      await app.dispose();
      if (throwaway) await rm(home, { recursive: true, force: true });
      done(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  });
}

function hasScreen(env: NodeJS.ProcessEnv): boolean {
  if (env.CI) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Hands the page's address to the system browser; a failure only costs a hint. */
function openInBrowser(url: string, log: (message: string) => void): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => log('Could not open a browser; open the address above yourself.'));
    child.unref();
  } catch {
    log('Could not open a browser; open the address above yourself.');
  }
}
