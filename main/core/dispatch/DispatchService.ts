/**
 * Dispatch (issue 40) joins three parts that exist: a backlog item (the work sources), a launch or a send (the launcher
 * and the terminal adapter) and, when asked, a git worktree. Every check runs before anything is made; a step that
 * fails after the worktree was added takes it back, so a refusal changes nothing. What went to whom is recorded in
 * the app's own store; changed-file counts of the worktrees are read at most every 10 s, never on the frame path.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DispatchHereRequest, DispatchHereResult, DispatchRequest, DispatchResult, DispatchView } from '../../../shared/dispatch';
import { DISPATCH_CHANGES_EVERY_MS } from '../../../shared/dispatch';
import type { LaunchRequest, LaunchResult } from '../../../shared/launch';
import type { FleetSnapshot, Harness, Persona, WorkItem } from '../../../shared/schemas';
import { shownValue } from '../../../shared/bounds';
import { ServiceError } from '../../kit/errors';
import { parsePersonaName, roleOrThrow } from '../personas/personaRules';
import { oneLinePrompt, worktreeNote } from './dispatchRules';
import { DispatchStore, sameItem, type DispatchRecord } from './dispatchStore';
import { changedFileCount, removeWorktree } from './git';
import { oneItem, promptOf } from './itemLookup';
import { makeWorktree, type MadeWorktree } from './worktree';
import { detectHarnesses, detectTmux } from '../launch/tmux';

/** Milliseconds a timer may fire before its time. */
const TIMER_SLACK_MS = 20;

/** What the service needs; each part is one the app already has. */
export interface DispatchServiceOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  /** Items with an id, from the work sources. */
  itemsWithId(id: string): Promise<WorkItem[]>;
  /** The Markdown folders configured, inside which an item's body may be read. */
  markdownFolders: readonly string[];
  personas: { find(who: string): Promise<Persona | undefined | null>; list(): Promise<Persona[]> };
  /** The fleet as it is now, for whether an agent is working. */
  fleet(): Promise<FleetSnapshot>;
  /** Hire and launch, as `agents launch` does. */
  launch(request: LaunchRequest): Promise<LaunchResult>;
  /** Where a persona's terminal is (null with the reason when it has none). */
  locate(personaId: string): Promise<{ terminal: unknown; reason: string | null }>;
  /** Types one line into a persona's terminal and presses Enter. */
  send(personaId: string, text: string): Promise<unknown>;
  /** settings.json `worktreeDir`, or null for `<repo>/.pixelfleet/worktrees`. */
  worktreeDir: string | null;
  /** Tells the page the active dispatches changed. */
  emit?(dispatches: DispatchView[]): void;
  /** The clock of the 10 s floor between two reads of a worktree (tests move it). */
  now?: () => number;
  /** Other machines (issue 42), for a dispatch with `host` or to a remote persona; absent: every dispatch runs here. */
  elsewhere?: {
    /** The host and the remote's own id of a persona id as this host shows it, or null for a local one. */
    split(personaId: string): { host: string; id: string } | null;
    /** Carries the dispatch out on that host; the answer names the persona as this host shows it. */
    carryOut(host: string, request: DispatchHereRequest): Promise<DispatchHereResult>;
  };
}

/** The item a dispatch carries: its id and title name the worktree and its branch. */
type ItemRef = { id: string; title: string };

/** What a dispatch asks of the machine it runs on. */
interface Order {
  harness?: Harness;
  role?: string;
  name?: string;
  personaId?: string;
  cwd: string;
  worktree: boolean;
}

/** The object without its undefined fields (a strict schema's optional fields are absent, never undefined). */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** Dispatch for the contract's handlers and the CLI. */
export class DispatchService {
  readonly store: DispatchStore;
  private readonly changes = new Map<string, { count: number | null; readAt: number }>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private reading: Promise<void> | null = null;

  constructor(private readonly options: DispatchServiceOptions) {
    this.store = new DispatchStore(options.home);
  }

  /** The prompt a dispatch of the item gives. */
  async prompt(itemId: string, source?: WorkItem['source']): Promise<string> {
    const item = oneItem(await this.options.itemsWithId(itemId), itemId, source);
    return promptOf(item, this.options.markdownFolders);
  }

  /** Gives an item to a new agent or to a running one, here or on a remote (issue 42); see the class comment. */
  async dispatch(request: DispatchRequest): Promise<DispatchResult> {
    const item = oneItem(await this.options.itemsWithId(request.itemId), request.itemId, request.source);
    const existing = await this.store.active({ source: item.source, itemId: item.id });
    if (existing) throw new ServiceError('invalid_request', `${JSON.stringify(shownValue(item.title))} is already dispatched to ${existing.persona} (${existing.at}); undispatch it first. Nothing was done.`);
    const prompt = request.prompt ?? (await promptOf(item, this.options.markdownFolders));
    const where = this.where(request);
    const order = { harness: request.harness, role: request.role, name: request.name, personaId: request.personaId, cwd: request.cwd, worktree: request.worktree === true };
    if (where) {
      // The item and its prompt are this host's; the worktree, the launch or the send are the remote's, the record ours.
      const carried = await this.options.elsewhere!.carryOut(where.host, { item: { id: item.id, title: item.title }, prompt, ...definedOnly({ ...order, personaId: where.personaId, worktree: order.worktree || undefined }) } as DispatchHereRequest);
      const made = carried.worktree !== null && carried.branch !== null ? { folder: carried.worktree, branch: carried.branch, repo: null } : null;
      await this.record(item, { id: carried.personaId, name: carried.persona }, carried.cwd, made, where.host);
      return { ...carried, itemId: item.id };
    }
    const { result, made } = await this.carry({ id: item.id, title: item.title }, order, prompt);
    await this.record(item, { id: result.personaId, name: result.persona }, result.cwd, made, null);
    return { ...result, itemId: item.id };
  }

  /** Carries out here a dispatch another host looked up (`work.dispatchHere`): the same checks and rollback, no record. */
  async here(request: DispatchHereRequest): Promise<DispatchHereResult> {
    return (await this.carry(request.item, { ...request, worktree: request.worktree === true }, request.prompt)).result;
  }

  /** The remote a dispatch runs on (its `host`, or a remote persona's own), with the persona's id there; null: here. */
  private where(request: DispatchRequest): { host: string; personaId?: string } | null {
    const remote = request.personaId !== undefined ? (this.options.elsewhere?.split(request.personaId) ?? null) : null;
    if (request.host !== undefined && remote && remote.host !== request.host) {
      throw new ServiceError('invalid_request', `${JSON.stringify(shownValue(request.personaId!))} is an agent of ${remote.host}, not of ${request.host}; nothing was done.`);
    }
    const host = request.host ?? remote?.host;
    if (host === undefined) return null;
    if (!this.options.elsewhere) throw new ServiceError('not_found', `This end joins no remotes, so it cannot dispatch on ${host}.`);
    return { host, ...(request.personaId !== undefined ? { personaId: remote?.id ?? request.personaId } : {}) };
  }

  /** The worktree and the launch or the send, on this machine; every refusal before the worktree, a rollback after. */
  private async carry(item: ItemRef, order: Order, prompt: string): Promise<{ result: DispatchHereResult; made: MadeWorktree | null }> {
    if (order.personaId !== undefined) return this.toRunning(item, order.personaId, order.cwd, prompt, order.worktree, order.harness);
    const cwd = await folderOrThrow(order.cwd);
    const role = roleOrThrow(order.role);
    if (order.name !== undefined) {
      const name = parsePersonaName(order.name);
      if (!name.ok) throw new ServiceError('invalid_request', `${name.reason} Nothing was done.`);
    }
    // What the launch would refuse is refused before a worktree is made for it.
    const tmux = detectTmux(this.options.env);
    if (!tmux.ok) throw new ServiceError('unavailable', `${tmux.reason} Nothing was done.`);
    const harness = detectHarnesses(this.options.env).find((entry) => entry.harness === order.harness);
    if (harness && !harness.ok) throw new ServiceError('unavailable', `Cannot launch ${order.harness}: ${harness.reason}. Nothing was done.`);
    const made = order.worktree ? await makeWorktree(item, cwd, this.options.worktreeDir, this.options.env) : null;
    let launched: LaunchResult;
    try {
      launched = await this.options.launch({ harness: order.harness!, role: role!, cwd: made?.folder ?? cwd, name: order.name, prompt });
    } catch (error) {
      await made?.rollback();
      throw error;
    }
    return { result: { personaId: launched.persona.id, persona: launched.persona.name, cwd: made?.folder ?? cwd, branch: made?.branch ?? null, worktree: made?.folder ?? null, launch: launched }, made };
  }

  private async toRunning(item: ItemRef, who: string, folder: string, prompt: string, worktree: boolean, harness?: Harness): Promise<{ result: DispatchHereResult; made: MadeWorktree | null }> {
    const persona = await this.options.personas.find(who);
    if (!persona) throw new ServiceError('not_found', `No persona with id or name ${JSON.stringify(shownValue(who))}; nothing was done.`);
    const seat = (await this.options.fleet()).seats.find((entry) => entry.personaId === persona.id);
    const runs = seat?.harness ?? persona.seat?.harness;
    if (harness !== undefined && runs !== undefined && runs !== harness) throw new ServiceError('invalid_request', `${persona.name} runs ${runs}, not ${harness}; nothing was done.`);
    if (seat?.activity.state === 'working') throw new ServiceError('unavailable', `${persona.name} is working; give it the item when it stops, or pick another agent. Nothing was done.`);
    const where = await this.options.locate(persona.id);
    if (!where.terminal) throw new ServiceError('unavailable', `${persona.name} has no terminal Pixelfleet can type into (${where.reason ?? 'none was found'}); nothing was done.`);
    const cwd = await folderOrThrow(folder);
    const made = worktree ? await makeWorktree(item, cwd, this.options.worktreeDir, this.options.env) : null;
    try {
      // The worktree comes first, so a long item cut at the terminal's bound still says where to work.
      await this.options.send(persona.id, oneLinePrompt(made ? `${worktreeNote(made.folder, made.branch)}\n${prompt}` : prompt));
    } catch (error) {
      await made?.rollback();
      throw error;
    }
    return { result: { personaId: persona.id, persona: persona.name, cwd: made?.folder ?? cwd, branch: made?.branch ?? null, worktree: made?.folder ?? null, launch: null }, made };
  }

  private async record(item: WorkItem, persona: { id: string; name: string }, cwd: string, made: { branch: string; folder: string; repo: string | null } | null, host: string | null): Promise<void> {
    const record: DispatchRecord = {
      source: item.source,
      itemId: item.id,
      title: item.title,
      url: item.url,
      personaId: persona.id,
      persona: persona.name,
      at: new Date().toISOString(),
      cwd,
      branch: made?.branch ?? null,
      worktree: made?.folder ?? null,
      repo: made?.repo ?? null,
      doneAt: null,
      // A remote's worktree is a path on that machine: its files are never read here.
      ...(host !== null ? { host } : {}),
    };
    await this.store.update((records) => ({ records: [...records, record], value: undefined }));
    if (record.worktree) await this.readChanges([record], true);
    await this.announce();
  }

  /** The active dispatches for the page. */
  async views(): Promise<DispatchView[]> {
    const names = new Map((await this.options.personas.list()).map((persona) => [persona.id, persona.name]));
    return (await this.store.list())
      .filter((record) => record.doneAt === null)
      .map((record) => ({
        itemId: record.itemId,
        source: record.source,
        title: record.title,
        personaId: record.personaId,
        persona: names.get(record.personaId) ?? record.persona,
        at: record.at,
        branch: record.branch,
        worktree: record.worktree,
        changedFiles: record.worktree ? (this.changes.get(record.worktree)?.count ?? null) : null,
      }));
  }

  /** Forgets an item's active dispatch; false when it had none. The agent and its worktree stay. */
  async undispatch(itemId: string, source?: WorkItem['source']): Promise<boolean> {
    const cleared = await this.store.update((records) => {
      const target = activeOne(records, itemId, source);
      return target ? { records: records.filter((record) => record !== target), value: true } : { records: null, value: false };
    });
    if (cleared) await this.announce();
    return cleared;
  }

  /** Marks an item's dispatch done; with `removeWorktree`, removes a clean worktree first (a dirty one is refused). */
  async done(itemId: string, source: WorkItem['source'] | undefined, removeIt: boolean): Promise<{ itemId: string; worktreeRemoved: boolean }> {
    const target = activeOne(await this.store.list(), itemId, source);
    if (!target) throw new ServiceError('not_found', `No active dispatch of the item ${JSON.stringify(shownValue(itemId))}; nothing was changed.`);
    let removed = false;
    if (removeIt && target.worktree && target.host) {
      throw new ServiceError('invalid_request', `The worktree ${target.worktree} is on ${target.host}: remove it there (git worktree remove ${target.worktree}), or mark the item done without --remove-worktree. Nothing was changed.`);
    }
    if (removeIt && target.worktree && (await stat(target.worktree).then(() => true, () => false))) {
      const count = await changedFileCount(target.worktree, this.options.env);
      if (count === null) throw new ServiceError('unavailable', `git could not read the worktree ${target.worktree}; nothing was changed.`);
      if (count > 0) throw new ServiceError('invalid_request', `The worktree ${target.worktree} has ${count} changed ${count === 1 ? 'file' : 'files'}; commit or discard ${count === 1 ? 'it' : 'them'} first. Nothing was changed.`);
      const gone = await removeWorktree(target.worktree, target.repo ?? path.dirname(target.worktree), this.options.env);
      if (!gone.ok) throw new ServiceError('unavailable', `git could not remove the worktree: ${gone.reason}. Nothing was changed.`);
      removed = true;
    }
    await this.store.update((records) => ({
      records: records.map((record) => (sameItem(record, target) && record.doneAt === null ? { ...record, doneAt: new Date().toISOString() } : record)),
      value: undefined,
    }));
    await this.announce();
    return { itemId: target.itemId, worktreeRemoved: removed };
  }

  /** Reads the worktrees' changed-file counts every 10 s in the background (a timer that never keeps the process alive). */
  start(): void {
    if (this.timer) return;
    void this.refreshChanges();
    this.timer = setInterval(() => void this.refreshChanges(), DISPATCH_CHANGES_EVERY_MS);
    this.timer.unref?.();
  }

  /** Reads the changed-file counts of the worktrees not read within 10 s and tells the page when any changed. */
  refreshChanges(): Promise<void> {
    this.reading ??= this.store
      .list()
      .then((records) => this.readChanges(records.filter((record) => record.doneAt === null), false))
      .then(async (changed) => {
        if (changed) await this.announce();
      })
      .catch(() => undefined)
      .finally(() => (this.reading = null));
    return this.reading;
  }

  /** Reads counts not read within 10 s (or all, `now`); true when any count changed. */
  private async readChanges(records: readonly DispatchRecord[], now: boolean): Promise<boolean> {
    let changed = false;
    for (const record of records) {
      if (!record.worktree || record.host) continue;
      const previous = this.changes.get(record.worktree);
      const clock = this.options.now ?? Date.now;
      // The read's start is its time, so the 10 s timer's next tick finds it due (a timer may fire a few ms early).
      const readAt = clock();
      if (!now && previous && readAt - previous.readAt < DISPATCH_CHANGES_EVERY_MS - TIMER_SLACK_MS) continue;
      const count = await changedFileCount(record.worktree, this.options.env);
      this.changes.set(record.worktree, { count, readAt });
      if (previous?.count !== count) changed = true;
    }
    return changed;
  }

  private async announce(): Promise<void> {
    if (this.options.emit) this.options.emit(await this.views());
  }

  /** Stops the timer. */
  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function activeOne(records: readonly DispatchRecord[], itemId: string, source?: WorkItem['source']): DispatchRecord | null {
  const matches = records.filter((record) => record.doneAt === null && record.itemId === itemId && (source === undefined || record.source === source));
  if (matches.length > 1) throw new ServiceError('invalid_request', `Items of ${matches.map((record) => record.source).join(' and ')} share the id ${JSON.stringify(shownValue(itemId))}; nothing was changed.`);
  return matches[0] ?? null;
}

async function folderOrThrow(cwd: string): Promise<string> {
  const folder = path.resolve(cwd);
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw new ServiceError('invalid_request', `The folder ${JSON.stringify(cwd)} does not exist or is not a folder; nothing was done.`);
  return folder;
}
