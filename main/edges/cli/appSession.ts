/**
 * The CLI's fleet commands speak to the app as the world does: through the router, so every request is checked
 * against the contract and every failure comes back as one of the contract's error codes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChannelName, RequestOf, ResponseOf } from '../../../shared/contract';
import { createApp, type App } from '../../setup/app';
import type { CliIo } from './io';

/** A refused or failed request, with its contract code; the CLI prints its message and exits non-zero. */
export class CommandFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One request through the router; a failure is thrown as a CommandFailure. */
export type Call = <C extends ChannelName>(channel: C, request: RequestOf<C>) => Promise<ResponseOf<C>>;

/** Starts the app for one command (no watchers, no timers), runs `use` with a router call, and stops it. */
export async function withRouter<T>(io: CliIo & { home: string }, use: (call: Call, app: App) => Promise<T>): Promise<T> {
  const app = await createApp({ home: io.home, mode: 'web', env: io.env, live: false, log: (message) => io.stderr(`${message}\n`) });
  let readsSeats = false;
  const call: Call = async (channel, request) => {
    if (SEAT_READERS.has(channel)) readsSeats = true;
    const answer = await app.router.handle(channel, request);
    if (!answer.ok) throw new CommandFailure(answer.error.code, answer.error.message);
    return answer.value as ResponseOf<typeof channel>;
  };
  try {
    const result = await use(call, app);
    if (readsSeats) await warnUnresolved(app, io);
    return result;
  } finally {
    await app.dispose();
  }
}

/** Channels whose answers come from the seats: an answer from seats that cannot be read is unknown, not empty. */
const SEAT_READERS = new Set<string>(['fleet.read', 'jobs.list', 'usage.read']);

/**
 * Says so on stderr when no seat of the fleet resolves under the harness homes this command reads (a running demo's
 * home named by PIXELFLEET_HOME without the demo's own harness homes): its jobs, waits and usage are then unknown, and
 * the command's "nothing" must not read as an empty fleet.
 */
async function warnUnresolved(app: App, io: CliIo & { home: string }): Promise<void> {
  const answer = await app.router.handle('fleet.read', { fresh: false });
  if (!answer.ok) return;
  const seats = (answer.value as ResponseOf<'fleet.read'>).seats.filter((seat) => !seat.host);
  const unresolved = seats.filter((seat) => seat.unknownReason?.startsWith('This seat no longer resolves'));
  if (seats.length === 0 || unresolved.length < seats.length) return;
  const demo = join(io.home, 'demo');
  const hint = existsSync(demo)
    ? ` This home holds a demo: name its harness homes, e.g. CLAUDE_CONFIG_DIR=${join(demo, 'claude')} CODEX_HOME=${join(demo, 'codex')} OPENCODE_DB=${join(demo, 'opencode', 'opencode.db')}.`
    : ' Name the harness homes the running app reads (CLAUDE_CONFIG_DIR, CODEX_HOME, OPENCODE_DB).';
  io.stderr(`pixelfleet: none of the ${seats.length} seats of ${io.home} resolves under the harness homes this command reads, so their subagents, waits and usage are unknown here, not empty.${hint}\n`);
}
