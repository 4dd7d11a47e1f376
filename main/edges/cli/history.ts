/**
 * `pixelfleet history [--since 2h|ISO] [--seat ID] [--kind needs-you|jobs|roles|activity] [--json]`: the recorded
 * transitions, oldest first; `pixelfleet history --digest [--since 1h] [--json]`: the away digest the page shows. Reads
 * the store read-only, beside a running app (the one writer).
 */
import { dollarsText, durationText, harnessText, roleText } from '../../../shared/usagePhrases';
import { HistoryFilterKindSchema, type DigestEntry, type HistoryDigest, type HistoryEvent, type HistoryList } from '../../../shared/history';
import { appPaths } from '../../setup/paths';
import { readDigest, readList } from '../../core/history/queries';
import { parseSince } from '../../core/history/since';
import { openHistoryReader } from '../../core/history/store';
import { option, parseArgs, rejectUnknown, UsageError, bounded } from '../../setup/args';
import type { CliIo } from './io';

const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Runs `history`; exit 0 (also when nothing is recorded), 2 on a usage error. */
export async function runHistoryCommand(argv: string[], io: CliIo & { home: string; now?: () => number }): Promise<number> {
  const args = parseArgs(argv, ['since', 'until', 'seat', 'kind']);
  rejectUnknown(args, ['since', 'until', 'seat', 'kind', 'json', 'digest']);
  if (args.positionals.length > 0) throw new UsageError('history takes no arguments (did you mean --since?).');
  const clock = (io.now ?? Date.now)();
  // --until ends the window earlier than now (the page's digest names its own end, so a script can ask for the same).
  const untilText = option(args, 'until');
  let now = clock;
  if (untilText !== undefined) {
    const parsed = parseSince(untilText, clock, '--until');
    if (!parsed.ok) throw new UsageError(parsed.reason);
    now = Math.min(parsed.at, clock);
  }
  const digest = args.flags.has('digest');
  const sinceText = option(args, 'since');
  let since = now - (digest ? HOUR_MS : 24 * HOUR_MS);
  if (sinceText !== undefined) {
    const parsed = parseSince(sinceText, clock);
    if (!parsed.ok) throw new UsageError(parsed.reason);
    since = Math.min(parsed.at, now);
  }
  const kindText = option(args, 'kind');
  const kind = kindText === undefined ? undefined : HistoryFilterKindSchema.safeParse(kindText);
  if (kind && !kind.success) throw new UsageError('--kind takes needs-you, jobs, roles or activity.');
  if (digest && (args.flags.has('seat') || kind)) throw new UsageError('--digest takes only --since, --until and --json.');
  const seat = bounded('--seat', option(args, 'seat'), 'id');
  const json = args.flags.has('json');

  const store = await openHistoryReader(appPaths(io.home).history, () => now);
  try {
    if (digest) {
      const body: HistoryDigest = { since: iso(since), until: iso(now), ...(store ? readDigest(store, since, now) : { entries: [], more: 0 }) };
      io.stdout(json ? `${JSON.stringify(body, null, 2)}\n` : digestText(body, store !== null));
      return 0;
    }
    const list: HistoryList = { since: iso(since), until: iso(now), ...(store ? readList(store, since, now, { seat, kind: kind?.data }) : { events: [], more: 0 }) };
    io.stdout(json ? `${JSON.stringify(list, null, 2)}\n` : listText(list, store !== null));
    return 0;
  } finally {
    store?.close();
  }
}

function minutes(ms: number): string {
  return durationText(Math.round(ms / 60_000) * 60_000);
}

function eventText(event: HistoryEvent): string {
  switch (event.type) {
    case 'seat.opened':
      return `seat opened (${harnessText(event.harness)} ${event.sessionId})`;
    case 'seat.closed':
      return 'seat closed';
    case 'activity':
      return `${event.state}${event.why ? ` (${event.why})` : ''}${event.certain ? '' : ' [estimated]'}${event.label ? ` — ${event.label}` : ''}`;
    case 'needs-you.entered':
      return `needs you: ${event.why}${event.certain ? '' : ' [estimated]'}`;
    case 'needs-you.left':
      return `no longer needs you (${event.why}, waited ${minutes(event.waitedMs)})`;
    case 'role':
      return `${event.name}: role ${roleText(event.previous)} → ${roleText(event.role)}`;
    case 'job.started':
      return `job ${event.alias ?? '(no alias)'} started: ${event.label}`;
    case 'job.ended':
      return `job ${event.alias ?? '(no alias)'} ended (${event.outcome ?? 'unknown'}): ${event.label}`;
    case 'launch':
      return `launched ${event.name} (${harnessText(event.harness)}${event.role ? `, ${roleText(event.role)}` : ''})`;
    case 'reply.sent':
      return 'a reply was sent to its terminal';
    case 'usage':
      return `usage: ${event.input + event.output} tokens${event.costUsd !== null ? `, ${dollarsText(event.costUsd)}` : ''}`;
    default:
      return event satisfies never;
  }
}

function listText(list: HistoryList, recorded: boolean): string {
  if (!recorded) return 'No history recorded yet (the running app records it).\n';
  if (list.events.length === 0) return `Nothing recorded since ${list.since}.\n`;
  const lines = list.events.map((event) => `${event.at}  ${event.seatId ?? event.personaId ?? ''}  ${eventText(event)}`);
  if (list.more > 0) lines.push(`… and ${list.more} more (narrow --since, --seat or --kind).`);
  return `${lines.join('\n')}\n`;
}

function digestLine(entry: DigestEntry): string {
  switch (entry.kind) {
    case 'waiting':
      return `${entry.name} is still waiting for you (${entry.why}), ${minutes(entry.waitedMs ?? 0)}`;
    case 'waited':
      return `${entry.name} waited for you (${entry.why}) ${minutes(entry.waitedMs ?? 0)}`;
    case 'turn-done':
      return `${entry.name} finished ${entry.count} turn${entry.count === 1 ? '' : 's'}`;
    case 'job-ended':
      return `${entry.name}'s job ${entry.alias ?? entry.label ?? ''} ended (${entry.outcome ?? 'unknown'})`;
    case 'launch':
      return `${entry.name} was launched (${harnessText(entry.harness ?? '?')})`;
    case 'error':
      return `${entry.name} stopped on an error`;
    default:
      return entry.kind satisfies never;
  }
}

function digestText(digest: HistoryDigest, recorded: boolean): string {
  if (!recorded) return 'No history recorded yet (the running app records it).\n';
  if (digest.entries.length === 0) return `Nothing happened since ${digest.since}.\n`;
  const lines = [`While you were away (since ${digest.since}):`, ...digest.entries.map((entry) => `  ${digestLine(entry)}`)];
  if (digest.more > 0) lines.push(`  … and ${digest.more} more.`);
  return `${lines.join('\n')}\n`;
}
