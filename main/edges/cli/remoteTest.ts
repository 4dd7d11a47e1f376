/** `pixelfleet remote test <name> [--json]`: is a listed remote usable from here, through the host's own ssh call? */
import { shownValue } from '../../../shared/bounds';
import { readRemotes } from '../remote/remoteStore';
import { describeTest, testRemote } from '../remote/testRemote';
import packageJson from '../../../package.json';
import { type ParsedArgs, rejectUnknown, UsageError } from '../../setup/args';
import type { CliIo } from './io';

/** Runs `remote test`: exit 0 when the remote is reachable, 1 when not. */
export async function runRemoteTest(args: ParsedArgs, io: CliIo & { home: string }): Promise<number> {
  rejectUnknown(args, ['json']);
  const [, name, extra] = args.positionals;
  if (!name || extra) throw new UsageError('remote test takes one name.');
  const read = await readRemotes(io.home);
  if (!read.ok) {
    io.stderr(`pixelfleet: ${read.reason}\n`);
    return 1;
  }
  const remote = read.remotes.find((entry) => entry.name === name);
  if (!remote) {
    io.stderr(`pixelfleet: no remote is named ${shownValue(name)}.\n`);
    return 1;
  }
  const result = await testRemote(remote, { env: io.env, appVersion: packageJson.version });
  io.stdout(args.flags.has('json') ? `${JSON.stringify(result, null, 2)}\n` : describeTest(remote.name, result));
  return result.reachable ? 0 : 1;
}
