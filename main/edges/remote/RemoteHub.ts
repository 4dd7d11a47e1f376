/**
 * The remotes of one host: a link per remote, and the world and board merged from the local ones and theirs. It is
 * the single place the merged versions are published from, each with its own cursor (fleet) and revision (board),
 * so the page follows the merged world by the same patches as a local one.
 */
import type { Answer, ChannelName, EventName } from '../../../shared/contract';
import { MIN_REFRESH_INTERVAL_MS, refreshIntervalMs } from '../../core/fleet/LiveUpdates';
import { boardIntervalMs } from '../../core/jobs/JobsService';
import { PaceGate } from '../../kit/paceGate';
import type { JobBoard } from '../../../shared/jobs';
import type { FleetSnapshot } from '../../../shared/schemas';
import { mergeBoard, mergeFleet, SeatViews, type RemoteState } from './mergeWorld';
import { RemoteLink } from './RemoteLink';
import type { Remote } from './remoteStore';
import { watchRemotes, type RemotesWatch } from './watchRemotes';

/** How the hub is built. */
export interface RemoteHubOptions {
  remotes: readonly Remote[];
  env: NodeJS.ProcessEnv;
  appVersion: string;
  /** Where each new merged snapshot goes (the update sender). */
  publishFleet: (snapshot: FleetSnapshot) => void;
  /** Where each new merged board goes. */
  publishBoard: (board: JobBoard) => void;
  log: (message: string) => void;
  /** Where remote agents' notifications and terminal events go (the host's event stream); absent: they stay there. */
  relay?: (event: EventName, payload: unknown) => void;
  /** The app home whose `remotes.json` a running host follows live (absent: the list given is kept). */
  home?: string;
}

/** The notice shown while `remotes.json` cannot be used (the last good list is kept). */
export const REMOTES_FILE_NOTICE = 'remotes-file';

/**
 * Remote changes are merged into the world at most once in this many milliseconds, the floor local refreshes keep
 * (four times a second): the patches of several busy remotes arriving within it make one page update, not one each, so
 * a page follows three remotes of 100 agents at about the cost of the same 300 agents local. A change after a quiet
 * spell is merged at once.
 */
export const REMOTE_MERGE_MS = MIN_REFRESH_INTERVAL_MS;

/** The links and the merged world. */
export class RemoteHub {
  readonly links = new Map<string, RemoteLink>();
  private local: FleetSnapshot | null = null;
  private localBoard: JobBoard | null = null;
  private merged: FleetSnapshot | null = null;
  private mergedBoard: JobBoard | null = null;
  private fleetKey = '';
  private boardKey = '';
  private cursor = 0;
  private revision = 0;
  private started = false;
  private readonly views = new SeatViews();
  /** Grows with every change of the list or of the file's problem, so merges notice either. */
  private listVersion = 0;
  private fileProblem: string | null = null;
  private watch: RemotesWatch | null = null;
  private readonly ssh: string;
  /**
   * The world and the board follow remote changes each at its own pace: a board change never holds up the world's.
   * Both are spaced as the local ones are, by the seats of the world merged last (remote ones count as local ones do):
   * the world as the local fleet's refreshes, the board as the local jobs board.
   */
  private readonly mergeInterval = () => refreshIntervalMs(this.merged?.seats.length ?? 0);
  private readonly fleetGate = new PaceGate(() => {
    if (this.local) this.mergeFleet();
  }, this.mergeInterval);
  private readonly boardGate = new PaceGate(
    () => {
      if (this.localBoard) this.mergeBoard();
    },
    () => Math.max(this.mergeInterval(), boardIntervalMs(this.merged?.seats.length ?? 0)),
  );

  constructor(private readonly options: RemoteHubOptions) {
    this.ssh = options.env.PIXELFLEET_SSH || 'ssh';
    this.setRemotes(options.remotes);
  }

  /** Connects every remote (once), and follows the home's `remotes.json` from then on. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const link of this.links.values()) link.start();
    if (this.options.home) {
      this.watch = watchRemotes(this.options.home, {
        list: (remotes) => this.setRemotes(remotes),
        problem: (reason) => this.setProblem(reason),
      });
    }
  }

  /**
   * Brings the links in line with a list: a new name connects, a gone name ends, a changed one reconnects; every other
   * link (and its stream) is left as it is.
   */
  setRemotes(remotes: readonly Remote[]): void {
    let moved = this.fileProblem !== null;
    this.fileProblem = null;
    const wanted = new Map(remotes.map((remote) => [remote.name, remote]));
    for (const [name, link] of this.links) {
      const next = wanted.get(name);
      if (next && sameRemote(next, link.remote)) continue;
      link.dispose();
      this.links.delete(name);
      moved = true;
    }
    for (const remote of remotes) {
      if (this.links.has(remote.name)) continue;
      const link = new RemoteLink({ remote, ssh: this.ssh, appVersion: this.options.appVersion, env: this.options.env, log: this.options.log, relay: this.options.relay, onChange: () => this.remoteChanged() });
      this.links.set(remote.name, link);
      if (this.started) link.start();
      moved = true;
    }
    if (!moved) return;
    this.listVersion += 1;
    this.remoteChanged();
  }

  /** The home's `remotes.json` cannot be used: say so in the world; the links stay as the last good list made them. */
  setProblem(reason: string): void {
    if (this.fileProblem === reason) return;
    this.fileProblem = reason;
    this.options.log(`pixelfleet: ${reason}; the last good list of remotes is kept`);
    this.listVersion += 1;
    this.remoteChanged();
  }

  /** Starts the links if needed and waits until each has answered or failed once (bounded by `timeoutMs`). */
  async settled(timeoutMs: number): Promise<void> {
    this.start();
    await Promise.all([...this.links.values()].map((link) => link.settled(timeoutMs)));
  }

  /** The state of each remote, in the order they are listed. */
  states(): RemoteState[] {
    return [...this.links.values()].map((link) => link.state);
  }

  /** Takes a new local snapshot; answers the merged world (published when it moved). */
  fleet(local: FleetSnapshot): FleetSnapshot {
    this.local = local;
    return this.mergeFleet();
  }

  /** Takes a new local board; answers the merged board (published when it moved). */
  board(local: JobBoard): JobBoard {
    this.localBoard = local;
    return this.mergeBoard();
  }

  /** A request for a remote's own contract; `unreachable` at once when the remote is down, `not_found` for no such remote. */
  forward(host: string, channel: ChannelName, payload: unknown): Promise<Answer<unknown>> {
    const link = this.links.get(host);
    if (!link) return Promise.resolve({ ok: false, error: { code: 'not_found', message: `No remote is named ${host}.` } });
    this.start();
    return link.request(channel, payload);
  }

  /** Ends every link. */
  dispose(): void {
    this.watch?.close();
    this.watch = null;
    this.fleetGate.dispose();
    this.boardGate.dispose();
    for (const link of this.links.values()) link.dispose();
  }

  /** A remote changed: whichever merged version that moves is brought up to date, each no oftener than its gate lets. */
  private remoteChanged(): void {
    if (this.local && this.fleetKeyNow() !== this.fleetKey) this.fleetGate.ask();
    if (this.localBoard && this.boardKeyNow() !== this.boardKey) this.boardGate.ask();
  }

  private fleetKeyNow(): string {
    return `${this.local!.cursor}|${this.listVersion}|${[...this.links.values()].map((link) => link.version).join(',')}`;
  }

  private boardKeyNow(): string {
    const local = this.localBoard!;
    return `${local.revision ?? local.at}|${this.listVersion}|${[...this.links.values()].map((link) => link.boardVersion).join(',')}`;
  }

  private mergeFleet(): FleetSnapshot {
    const local = this.local!;
    const key = this.fleetKeyNow();
    if (key !== this.fleetKey || !this.merged) {
      this.fleetKey = key;
      this.fleetGate.ran();
      this.cursor += 1;
      this.merged = withFileProblem(mergeFleet(local, this.states(), this.cursor, this.views), this.fileProblem);
      this.options.publishFleet(this.merged);
    }
    return this.merged;
  }

  private mergeBoard(): JobBoard {
    const local = this.localBoard!;
    const key = this.boardKeyNow();
    if (key !== this.boardKey || !this.mergedBoard) {
      this.boardKey = key;
      this.boardGate.ran();
      this.revision += 1;
      this.mergedBoard = mergeBoard(local, this.states(), this.revision, this.cursor);
      this.options.publishBoard(this.mergedBoard);
    }
    return this.mergedBoard;
  }
}

function sameRemote(a: Remote, b: Remote): boolean {
  return a.destination === b.destination && a.command === b.command;
}

function withFileProblem(snapshot: FleetSnapshot, problem: string | null): FleetSnapshot {
  if (problem === null) return snapshot;
  const notice = { id: REMOTES_FILE_NOTICE, level: 'warning' as const, message: `${problem}; the last good list of remotes is kept.` };
  return { ...snapshot, notices: [...(snapshot.notices ?? []), notice] };
}

