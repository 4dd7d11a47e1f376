/** `pixelfleet serve --stdio`: this machine's fleet served over stdin/stdout to a host that reached it over ssh. */
import { resolve } from 'node:path';
import { APP_VERSION, createApp } from '../../setup/app';
import { DEMO_AGENTS_DEFAULT, DEMO_AGENTS_MAX } from '../../setup/bootstrap';
import { serveStdio } from '../remote/stdioServer';
import { intOption, option, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import type { CliIo } from './io';

/** Runs the stdio server until stdin ends; exit 0 then, 1 when the peer was refused (another contract version). */
export async function runServeCommand(
  argv: string[],
  io: CliIo & { home: string; input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream },
): Promise<number> {
  const args = parseArgs(argv, ['home', 'agents']);
  rejectUnknown(args, ['stdio', 'home', 'demo', 'agents']);
  if (args.positionals.length > 0) throw new UsageError('serve takes no arguments.');
  if (!args.flags.has('stdio')) throw new UsageError('serve needs --stdio (a host reaches this machine over ssh; nothing listens on a port).');
  const homeOption = option(args, 'home');
  const home = homeOption ? resolve(homeOption) : io.home;
  const demo = args.flags.has('demo') ? { agents: intOption(args, 'agents', DEMO_AGENTS_DEFAULT, DEMO_AGENTS_MAX, 1) } : undefined;
  const log = (message: string) => io.stderr(`${message}\n`);
  const app = await createApp({ home, mode: 'web', env: io.env, demo, live: true, log, remotes: false });
  const input = (io.input ?? process.stdin) as NodeJS.ReadStream;
  const output = (io.output ?? process.stdout) as NodeJS.WriteStream;
  try {
    const reason = await serveStdio({ served: app, input, output, appVersion: APP_VERSION, log });
    return reason === 'eof' ? 0 : 1;
  } finally {
    await app.dispose();
    if (input === process.stdin) process.stdin.pause();
  }
}
