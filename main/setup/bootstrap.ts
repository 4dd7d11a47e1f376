/**
 * The one way in. The desktop app, browser mode and the CLI's `web`/`demo` start the app through here: one argument
 * parser, one rule for the app home (a demo runs in a throwaway home unless one was named, so demo personas never
 * land in the owner's store), one bound for `--agents`, and boot errors reported instead of swallowed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp, type App, type AppOptions } from './app';
import { intOption, option, parseArgs, rejectUnknown, UsageError } from './args';
import { unsafePortReason } from '../edges/host/unsafePorts';
import { resolveAppHome } from './paths';

/** Demo agents when `--agents` is not given, and the most a demo may simulate. */
export const DEMO_AGENTS_DEFAULT = 6;
export const DEMO_AGENTS_MAX = 500;

/** What a start was asked for. */
export interface StartArgs {
  demo: boolean;
  /** Simulated agents (only with `demo`). */
  agents: number;
  /** `--home DIR`: the app home to use (also for a demo, which then keeps its data). */
  home: string | null;
  /** `--port N` (browser mode; 0 picks a free port). */
  port: number;
  /** `--open` / `--no-open`, or null when neither was given. */
  open: boolean | null;
  /** True when `--port` was given (else browser mode asks for the port its token file recorded). */
  portGiven?: boolean;
  /** `--new-token`: browser mode makes a new token instead of the one kept in the app home. */
  newToken?: boolean;
}

const VALUED = ['port', 'agents', 'home'];
const FLAGS = ['demo', 'open', 'no-open', 'new-token'];

/**
 * Parses a start's arguments. `strict` refuses unknown options (the CLI); the desktop app is not strict, because
 * Electron and Chromium put switches of their own on the command line.
 */
export function parseStartArgs(argv: readonly string[], options: { strict: boolean; demo?: boolean }): StartArgs {
  const args = parseArgs(options.strict ? [...argv] : argv.filter((arg, index) => isOurs(arg) || takesValue(argv[index - 1])), VALUED);
  if (options.strict) rejectUnknown(args, [...VALUED, ...FLAGS]);
  const agents = intOption(args, 'agents', DEMO_AGENTS_DEFAULT, DEMO_AGENTS_MAX, 1);
  const home = option(args, 'home');
  const port = intOption(args, 'port', 0, 65535);
  const unsafe = unsafePortReason(port);
  if (unsafe) throw new UsageError(unsafe);
  return {
    demo: options.demo === true || args.flags.has('demo'),
    agents,
    home: home ? resolve(home) : null,
    port,
    open: args.flags.has('open') ? true : args.flags.has('no-open') ? false : null,
    ...(args.flags.has('port') ? { portGiven: true } : {}),
    ...(args.flags.has('new-token') ? { newToken: true } : {}),
  };
}

/** True for one of our options (`--demo`, `--agents 12`, `--agents=12`…), so foreign switches can be left out. */
function isOurs(arg: string): boolean {
  if (!arg.startsWith('--')) return false;
  const name = arg.slice(2).split('=')[0];
  return VALUED.includes(name) || FLAGS.includes(name);
}

/** `--agents 12` (not `--agents=12`): the next argument is its value. */
function takesValue(previous: string | undefined): boolean {
  return previous !== undefined && previous.startsWith('--') && VALUED.includes(previous.slice(2));
}

/** A start that cannot go on, with a reason the owner can act on. */
export class StartError extends Error {}

/** The app home a start uses. */
export interface HomePlan {
  home: string;
  /** True when the home was made for this run and goes away with it. */
  throwaway: boolean;
}

/**
 * The home rule: `--home` wins, then `$PIXELFLEET_HOME`; a demo without either gets a fresh temporary folder (the
 * owner's real store is never touched by simulated personas); anything else uses the owner's app home.
 */
export function planHome(args: Pick<StartArgs, 'demo' | 'home'>, env: NodeJS.ProcessEnv): HomePlan {
  if (args.home) return { home: args.home, throwaway: false };
  if (args.demo && !env.PIXELFLEET_HOME) return { home: mkdtempSync(join(tmpdir(), 'pixelfleet-demo-')), throwaway: true };
  return { home: resolveAppHome(env), throwaway: false };
}

/** A started app and how to stop it (which also removes a throwaway home). */
export interface Started {
  app: App;
  plan: HomePlan;
  stop(): Promise<void>;
}

/** Starts the services for a plan; on failure a throwaway home is removed and a StartError names the reason. */
export async function startServices(
  args: StartArgs,
  plan: HomePlan,
  options: Omit<AppOptions, 'home' | 'demo'>,
): Promise<Started> {
  const removeHome = () => {
    if (plan.throwaway) rmSync(plan.home, { recursive: true, force: true });
  };
  let app: App;
  try {
    app = await createApp({ ...options, home: plan.home, demo: args.demo ? { agents: args.agents } : undefined });
  } catch (error) {
    removeHome();
    throw new StartError(`could not start with the data folder ${plan.home}: ${(error as Error)?.message ?? String(error)}`);
  }
  let stopped: Promise<void> | null = null;
  return {
    app,
    plan,
    stop() {
      stopped ??= app.dispose().finally(removeHome);
      return stopped;
    },
  };
}

/** What the desktop shell (Electron, or a stand-in in tests) offers the bootstrap. */
export interface DesktopShell {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Points the shell's own data (Electron's userData) at the app home; called before the shell is ready. */
  setDataFolder(home: string): void;
  whenReady(): Promise<void>;
  /** Opens the window over the started app (IPC, notifications). */
  openWindow(started: Started): Promise<void> | void;
  /** Shows a failed start to the owner (a dialog) before quitting. */
  showBootError(title: string, reason: string): void;
  quit(): void;
  log(message: string): void;
  openExternal?: AppOptions['openExternal'];
}

/**
 * The desktop start: parse, plan the home, wait for the shell, start the services, open the window. A failure at
 * any step is shown in a dialog with its reason and the app quits (it never hangs without a window).
 */
export async function runDesktop(shell: DesktopShell): Promise<Started | null> {
  let started: Started | null = null;
  try {
    const args = parseStartArgs(shell.argv, { strict: false });
    const plan = planHome(args, shell.env);
    shell.setDataFolder(plan.home);
    await shell.whenReady();
    started = await startServices(args, plan, { mode: 'electron', env: shell.env, log: shell.log, openExternal: shell.openExternal });
    await shell.openWindow(started);
    return started;
  } catch (error) {
    const reason = (error as Error)?.message ?? String(error);
    shell.log(`pixelfleet: ${reason}`);
    await started?.stop().catch(() => undefined);
    shell.showBootError('Pixelfleet could not start', reason);
    shell.quit();
    return null;
  }
}
