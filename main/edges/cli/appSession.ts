/**
 * The CLI's fleet commands speak to the app as the world does: through the router, so every request is checked
 * against the contract and every failure comes back as one of the contract's error codes.
 */
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
  const call: Call = async (channel, request) => {
    const answer = await app.router.handle(channel, request);
    if (!answer.ok) throw new CommandFailure(answer.error.code, answer.error.message);
    return answer.value as ResponseOf<typeof channel>;
  };
  try {
    return await use(call, app);
  } finally {
    await app.dispose();
  }
}
