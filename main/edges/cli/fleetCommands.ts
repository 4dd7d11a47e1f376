/** `pixelfleet candidates | seats open|close | fleet`: one-shot operations on the app home's fleet. */
import { activityPhrase } from '../../../shared/activity';
import { shownValue } from '../../../shared/bounds';
import { bounded, option, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import { withRouter } from './appSession';
import { settledUsage, snapshotPartial } from './settleUsage';
import type { CliIo } from './io';
import { roleText } from '../../../shared/usagePhrases';

function print(io: CliIo, json: boolean, value: unknown, text: () => string): void {
  io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : text());
}

/** Runs `candidates`, `seats …` or `fleet`. */
export async function runFleetCommand(command: 'candidates' | 'seats' | 'fleet', argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, ['name', 'role']);
  const json = args.flags.has('json');
  if (command === 'candidates') {
    rejectUnknown(args, ['json']);
    const { candidates: list, unreachable } = await withRouter(io, (call) => call('fleet.lobby', { refresh: true }));
    // A remote that could not list its sessions is said so (stderr, so `--json` keeps its documented array).
    for (const entry of unreachable) io.stderr(`${entry.host}: ${entry.reason}; its sessions are not listed.\n`);
    print(io, json, list, () =>
      list.length === 0
        ? 'No sessions found (looked in the Claude Code, Codex and OpenCode homes).\n'
        : list.map((entry) => `${entry.id}  ${entry.lastActivity}  ${entry.opened ? 'open  ' : '      '}${entry.cwdHint ?? ''}\n`).join(''),
    );
    return 0;
  }
  if (command === 'fleet') {
    rejectUnknown(args, ['json']);
    // Usage in the snapshot means what `usage` means: counted whole when the pass can finish in time (issue 37).
    const snapshot = await withRouter(io, (call, app) => settledUsage(io, app, () => call('fleet.read', { fresh: true }), snapshotPartial));
    print(io, json, snapshot, () => {
      const names = new Map(snapshot.personas.map((persona) => [persona.id, persona]));
      const lines = snapshot.seats.map((seat) => {
        const persona = names.get(seat.personaId);
        const count = seat.subagents ? String(seat.subagents.running) : '?';
        return `${seat.id}  ${persona?.name ?? '?'} (${roleText(persona?.role)})${seat.host ? ` on ${seat.host}` : ''}  ${activityPhrase(seat.activity)}  subagents: ${count}${seat.unknownReason ? ` — ${seat.unknownReason}` : ''}\n`;
      });
      const stations = snapshot.stations.map((station) => `${roleText(station.role)}: ${station.count} agent(s), ${station.backlog.items.length} item(s)${station.backlog.error ? ` — ${station.backlog.error}` : ''}\n`);
      return [`cursor ${snapshot.cursor}\n`, ...lines, ...stations].join('');
    });
    return 0;
  }
  const [verb, id, extra] = args.positionals;
  if (verb === 'open') {
    rejectUnknown(args, ['json', 'name', 'role']);
    if (!id || extra) throw new UsageError('seats open takes one candidate id.');
    bounded('the candidate id', id, 'id');
    const opened = await withRouter(io, (call) => call('seats.open', { candidateId: id, name: option(args, 'name'), role: option(args, 'role') }));
    print(io, json, opened, () => `Opened ${opened.seat.id} as ${opened.persona.name} (${roleText(opened.persona.role)}).\n`);
    return 0;
  }
  if (verb === 'close') {
    rejectUnknown(args, ['json']);
    if (!id || extra) throw new UsageError('seats close takes one seat id.');
    bounded('the seat id', id, 'id');
    const result = await withRouter(io, (call) => call('seats.close', { seatId: id }));
    if (!result.closed) {
      io.stderr(`pixelfleet: no open seat has the id ${shownValue(id)}.\n`);
      return 1;
    }
    print(io, json, result, () => `Closed ${id}; its persona stays, unassigned from the seat.\n`);
    return 0;
  }
  throw new UsageError('seats takes open or close.');
}
