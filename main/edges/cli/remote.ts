/** `pixelfleet remote add|list|remove`: the machines whose agents join this host's world over ssh. */
import { shownValue } from '../../../shared/bounds';
import { addRemote, readRemotes, removeRemote } from '../remote/remoteStore';
import { option, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import type { CliIo } from './io';

/** Runs `remote …`. */
export async function runRemoteCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, ['command']);
  const [verb, name, destination, extra] = args.positionals;
  if (verb === 'add') {
    rejectUnknown(args, ['command']);
    if (!name || !destination || extra) throw new UsageError('remote add takes a name and an ssh destination.');
    const remote = await addRemote(io.home, { name, destination, command: option(args, 'command') });
    io.stdout(`Added ${remote.name}: ssh ${remote.destination} ${remote.command} serve --stdio\nA running host joins it within seconds, without a restart.\n`);
    return 0;
  }
  if (verb === 'list') {
    rejectUnknown(args, ['json']);
    if (name) throw new UsageError('remote list takes no arguments.');
    const read = await readRemotes(io.home);
    if (!read.ok) {
      io.stderr(`pixelfleet: ${read.reason}\n`);
      return 1;
    }
    if (args.flags.has('json')) io.stdout(`${JSON.stringify(read.remotes, null, 2)}\n`);
    else if (read.remotes.length === 0) io.stdout('No remotes. Add one with `pixelfleet remote add <name> <ssh destination>`.\n');
    else for (const remote of read.remotes) io.stdout(`${remote.name}  ${remote.destination}  ${remote.command}\n`);
    return 0;
  }
  if (verb === 'remove') {
    rejectUnknown(args, []);
    if (!name || destination) throw new UsageError('remote remove takes one name.');
    if (!(await removeRemote(io.home, name))) {
      io.stderr(`pixelfleet: no remote is named ${shownValue(name)}.\n`);
      return 1;
    }
    io.stdout(`Removed ${name}.\n`);
    return 0;
  }
  if (verb === 'test') return (await import('./remoteTest')).runRemoteTest(args, io);
  throw new UsageError('remote takes add, list, remove or test.');
}
