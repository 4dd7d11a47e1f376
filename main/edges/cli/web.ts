/** `pixelfleet web` and `pixelfleet demo`: browser mode, serving the world until interrupted. */
import { spawn } from 'node:child_process';
import { parseStartArgs, planHome, startServices, type Started } from '../../setup/bootstrap';
import { startHost } from '../host/server';
import { listenWithToken } from '../host/tokenHost';
import { ensureRendererBuilt } from '../host/rendererBuild';
import type { CliIo } from './io';

/** Set to `1` by whoever starts browser mode as a child: the host stops when its stdin ends. */
export const STOP_WITH_STDIN = 'PIXELFLEET_STOP_WITH_STDIN';

/** Runs browser mode; resolves with the exit code once SIGINT or SIGTERM stops it. */
export async function runWebCommand(argv: string[], io: CliIo & { home: string; demo: boolean }): Promise<number> {
  const args = parseStartArgs(argv, { strict: true, demo: io.demo });
  const { demo, agents, port } = args;
  const log = (message: string) => io.stderr(`${message}\n`);
  const rendererDir = await ensureRendererBuilt(log);
  // The demo's throwaway home goes away with it; a home the owner named stays.
  const plan = planHome(args, io.env);
  const { home, throwaway } = plan;
  let started: Started;
  try {
    started = await startServices(args, plan, { mode: 'web', env: io.env, log });
  } catch (error) {
    io.stderr(`pixelfleet: ${(error as Error).message}\n`);
    return 1;
  }
  const { app } = started;
  let host;
  try {
    host = await listenWithToken({ app, rendererDir, log }, { home, port, portGiven: args.portGiven === true, rotate: args.newToken === true }, startHost);
  } catch (error) {
    await started.stop();
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
  const open = args.open ?? (io.demo && hasScreen(io.env));
  if (open) openInBrowser(host.url, log);

  const watchStdin = io.env[STOP_WITH_STDIN] === '1';
  return new Promise((done) => {
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await host.close();
      await started.stop();
      // A stdin still read would keep the process alive after a signal stopped it (its parent then waits or kills).
      if (watchStdin) process.stdin.destroy();
      done(0);
    };
    // Ctrl+C in a terminal signals the whole process group, and `npm start` passes the signal on too: the host hears
    // it twice. Cleanup (closing the history store, removing a demo's throwaway home) must not be cut short by the
    // echo, so a signal while stopping is ignored; a third ends the process at once.
    let signals = 0;
    const onSignal = () => {
      signals += 1;
      if (signals >= 3) process.exit(130);
      void stop();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // A host started by a test or the bench ends with its parent, even one killed outright: the parent's end of the
    // stdin pipe closes with it.
    if (watchStdin) {
      process.stdin.once('end', () => void stop());
      process.stdin.once('close', () => void stop());
      process.stdin.resume();
    }
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
