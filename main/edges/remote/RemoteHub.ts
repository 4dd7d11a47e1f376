/**
 * The remotes of one host: a link per remote, and the world and board merged from the local ones and theirs. It is
 * the single place the merged versions are published from, each with its own cursor (fleet) and revision (board),
 * so the page follows the merged world by the same patches as a local one.
 */
import type { Answer, ChannelName } from '../../../shared/contract';
import type { JobBoard } from '../../../shared/jobs';
import type { FleetSnapshot } from '../../../shared/schemas';
import { mergeBoard, mergeFleet, SeatViews, type RemoteState } from './mergeWorld';
import { RemoteLink } from './RemoteLink';
import type { Remote } from './remoteStore';

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
}

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

  constructor(private readonly options: RemoteHubOptions) {
    const ssh = options.env.PIXELFLEET_SSH || 'ssh';
    for (const remote of options.remotes) {
      this.links.set(remote.name, new RemoteLink({ remote, ssh, appVersion: options.appVersion, env: options.env, log: options.log, onChange: () => this.remoteChanged() }));
    }
  }

  /** Connects every remote (once). */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const link of this.links.values()) link.start();
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
    for (const link of this.links.values()) link.dispose();
  }

  private remoteChanged(): void {
    if (this.local) this.mergeFleet();
    if (this.localBoard) this.mergeBoard();
  }

  private mergeFleet(): FleetSnapshot {
    const local = this.local!;
    const key = `${local.cursor}|${[...this.links.values()].map((link) => link.version).join(',')}`;
    if (key !== this.fleetKey || !this.merged) {
      this.fleetKey = key;
      this.cursor += 1;
      this.merged = mergeFleet(local, this.states(), this.cursor, this.views);
      this.options.publishFleet(this.merged);
    }
    return this.merged;
  }

  private mergeBoard(): JobBoard {
    const local = this.localBoard!;
    const key = `${local.revision ?? local.at}|${[...this.links.values()].map((link) => link.boardVersion).join(',')}`;
    if (key !== this.boardKey || !this.mergedBoard) {
      this.boardKey = key;
      this.revision += 1;
      this.mergedBoard = mergeBoard(local, this.states(), this.revision, this.cursor);
      this.options.publishBoard(this.mergedBoard);
    }
    return this.mergedBoard;
  }
}
