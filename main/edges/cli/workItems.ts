/**
 * `pixelfleet work-items --label <role> [--json]`: the items a station with that role shows, read from the
 * sources in `<home>/settings.json`, with each failing source's error beside them.
 */
import path from 'node:path';
import { roleString, shownValue } from '../../../shared/bounds';
import type { ItemDispatch } from '../../../shared/dispatch';
import type { SourceError, WorkItem } from '../../../shared/schemas';
import { activeDispatches } from '../../core/dispatch/activeDispatches';
import { loadSettings } from '../../setup/settings/loadSettings';
import { WorkService } from '../../sources/work/WorkService';

/** Where the command writes; the CLI passes the process streams, tests pass collectors. */
export interface WorkItemsIo {
  /** The app home holding settings.json. */
  home: string;
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Milliseconds one request may take (tests shorten it). */
  timeoutMs?: number;
}

const USAGE = 'usage: pixelfleet work-items --label <role> [--json] | dispatch <item id> … | undispatch <item id> | done <item id> [--remove-worktree]';

/** Runs the command; returns the exit code (2 for a usage error, 1 when every configured source failed). */
export async function runWorkItemsCommand(args: string[], io: WorkItemsIo): Promise<number> {
  const parsed = parseArguments(args);
  if (!parsed.ok) {
    io.stderr.write(`${parsed.message}\n${USAGE}\n`);
    return 2;
  }
  const settingsFile = path.join(io.home, 'settings.json');
  const { settings, problems } = await loadSettings(settingsFile);
  for (const problem of problems) io.stderr.write(`warning: ${problem}\n`);
  if (settings.workSources.length === 0) io.stderr.write(`note: no workSources configured in ${settingsFile}.\n`);

  const service = new WorkService({ sources: settings.workSources, env: io.env, timeoutMs: io.timeoutMs });
  try {
    const { items, errors } = await service.items(parsed.label, { refresh: true });
    // What was dispatched to whom is the app's own record (issue 40); an unreadable record is said, not fatal.
    const dispatched = await activeDispatches(io.home).catch((error: unknown) => {
      io.stderr.write(`warning: ${error instanceof Error ? error.message : String(error)}\n`);
      return null;
    });
    const dispatchOf = (item: WorkItem): ItemDispatch | null => dispatched?.get(`${item.source}\u0000${item.id}`) ?? null;
    if (parsed.json) {
      const output = { label: parsed.label, items: items.map((item) => ({ ...pickItemFields(item), dispatch: dispatchOf(item) })), errors };
      io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    } else {
      io.stdout.write(formatTable(parsed.label, items, errors, dispatchOf));
    }
    const sourceCount = service.sourceNames.length;
    return sourceCount > 0 && service.failedSourceCount() === sourceCount ? 1 : 0;
  } finally {
    service.dispose();
  }
}

type ParsedArguments = { ok: true; label: string; json: boolean } | { ok: false; message: string };

/** Parses `--label <role>`, `--label=<role>` and `--json`. */
export function parseArguments(args: string[]): ParsedArguments {
  let label: string | undefined;
  let json = false;
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index];
    if (argument === '--json') json = true;
    else if (argument === '--label') {
      label = args[index + 1];
      index += 1;
      if (label === undefined) return { ok: false, message: 'work-items: --label needs a role, e.g. --label tester.' };
    } else if (argument.startsWith('--label=')) label = argument.slice('--label='.length);
    else return { ok: false, message: `work-items: unknown argument ${JSON.stringify(shownValue(argument))}.` };
  }
  if (label === undefined || label.trim() === '') return { ok: false, message: 'work-items: --label <role> is required.' };
  // A label is compared with roles, so it is held to the role rule's length (the contract's bound for work.items).
  const bound = roleString().safeParse(label);
  if (!bound.success) return { ok: false, message: `work-items: --label ${bound.error.issues[0].message}.` };
  return { ok: true, label: label.trim(), json };
}

/** A plain table: one line per item, then the errors. */
export function formatTable(label: string, items: WorkItem[], errors: SourceError[], dispatchOf: (item: WorkItem) => ItemDispatch | null = () => null): string {
  const rows = items.map((item) => {
    const dispatch = dispatchOf(item);
    return [item.source, item.id, item.status ?? '', item.labels.join(', '), dispatch ? `${item.title}  → ${dispatch.persona}` : item.title];
  });
  const header = ['SOURCE', 'ID', 'STATUS', 'LABELS', 'TITLE'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ');
  const lines = items.length > 0 ? [line(header), ...rows.map(line)] : [`No work items labelled "${label}".`];
  for (const error of errors) lines.push(`error: ${error.source}: ${error.message}`);
  return `${lines.join('\n')}\n`;
}

function pickItemFields(item: WorkItem): WorkItem {
  return { source: item.source, id: item.id, title: item.title, labels: item.labels, status: item.status, url: item.url };
}
