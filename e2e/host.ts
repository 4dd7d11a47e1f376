/** Starts browser mode as a real child process on a fresh home, and reads the URL it prints. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HOST_NODE_FLAGS } from '../main/edges/cli/hostFlags.mjs';

/** A running `pixelfleet web` process. */
export interface RunningHost {
  url: string;
  origin: string;
  token: string;
  port: number;
  home: string;
  /** The id of the `pixelfleet web` process: browser mode's main process. */
  pid: number;
  output: () => string;
  /** Closes the host's stdin as this process's death would; the host then stops by itself. */
  closeStdin(): void;
  stop(): Promise<void>;
}

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '..');

/** A fresh temporary app home. */
export async function freshHome(prefix = 'pixelfleet-e2e-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Removes a temporary home. */
export async function removeHome(home: string): Promise<void> {
  await rm(home, { recursive: true, force: true });
}

/** Runs `node main/edges/cli/pixelfleet.mjs web …` with PIXELFLEET_HOME=home and resolves once the URL is printed. */
export async function startHost(options: { home: string; args?: string[]; env?: NodeJS.ProcessEnv; recordedPort?: boolean }): Promise<RunningHost> {
  // `recordedPort`: no `--port`, so the host asks for the port its token file recorded (a restart's own rule).
  const port = options.recordedPort ? [] : ['--port', '0'];
  // Node's flags as the launcher's shebang gives them, then any asked for here (`--cpu-prof --cpu-prof-dir=…`, which
  // NODE_OPTIONS refuses), for profiling a bench.
  const nodeArgs = [...HOST_NODE_FLAGS, ...(process.env.PIXELFLEET_HOST_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs'), 'web', ...port, ...(options.args ?? [])], {
    cwd: ROOT,
    // Each harness home defaults to a folder inside the test's home, so nothing on this machine leaks in.
    env: {
      ...process.env,
      CLAUDE_CONFIG_DIR: join(options.home, 'claude'),
      CODEX_HOME: join(options.home, 'codex'),
      XDG_DATA_HOME: join(options.home, 'data'),
      OPENCODE_DB: '',
      // A private tmux server that does not run unless a spec starts it: the owner's own server is never asked.
      PIXELFLEET_TMUX_SOCKET: `pf-e2e-none-${process.pid}`,
      ...options.env,
      PIXELFLEET_HOME: options.home,
      // The host ends with this process, even if it is killed before it can stop the host.
      PIXELFLEET_STOP_WITH_STDIN: '1',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the host printed no URL in 60 s:\n${output}`)), 60_000);
    const check = () => {
      const match = /Pixelfleet is running at (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        done(match[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the host exited with ${code}:\n${output}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token')!,
    port: Number(parsed.port),
    home: options.home,
    pid: child.pid!,
    output: () => output,
    closeStdin: () => child.stdin!.end(),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** The tmux on PATH, or null (the specs that drive a real tmux skip without it, saying so). */
export function tmuxPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}
