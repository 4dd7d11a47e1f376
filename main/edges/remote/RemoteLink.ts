/**
 * One remote machine: one `ssh … <command> serve --stdio` process, its hello, and its stream of snapshots and boards
 * (whole, then patches applied onto the version they name; a gap is healed by one whole read over the same stream).
 * A failure of any kind (ssh cannot connect, the stream drops, a garbage frame, another contract version) marks it
 * unreachable, keeps its last known state and retries with a backoff from 1 s to 60 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { channels, CONTRACT_VERSION, isEvent, parseEvent, type Answer, type ChannelName, type EventName, type Notification } from '../../../shared/contract';
import { applyFleetPatch, applyJobsPatch } from '../../../shared/updates';
import { createLineDecoder, encodeFrame, frameOrFault, type FaultWords, type FrameEvent } from './framing';
import { checkHello, helloFrame } from './protocol';
import { RemoteSeatGuard } from './remoteGuard';
import type { RemoteState } from './mergeWorld';
import type { Remote } from './remoteStore';
import { clockTime, remoteId } from './namespace';
import { HELLO_TIMEOUT_MS, MAX_REMOTE_FRAMES_PER_SECOND, RECONNECT_MAX_MS, RECONNECT_MIN_MS, REMOTE_REQUEST_TIMEOUT_MS, STDERR_TAIL_CHARS } from './bounds';

/** How the host words a line the remote sent that it refuses (the link faults with it). */
const LINK_FAULTS: FaultWords = {
  tooLarge: (bytes) => `it sent a frame of ${bytes} bytes, over the bound`,
  garbage: (reason) => `it answered garbage (${reason})`,
};

/** How a link is started. */
export interface RemoteLinkOptions {
  remote: Remote;
  /** The ssh program (`ssh`, or PIXELFLEET_SSH). */
  ssh: string;
  appVersion: string;
  env: NodeJS.ProcessEnv;
  /** Where the remote's notifications and terminal events go, ids namespaced (absent: they stay there). */
  relay?: (event: EventName, payload: unknown) => void;
  /** Called after every change of the state (snapshot, board, reachability). */
  onChange: () => void;
  log: (message: string) => void;
}

/** The argument vector of the ssh call for a remote (never a shell string on this side). */
export function sshArguments(remote: Remote): string[] {
  return ['-T', '-o', 'BatchMode=yes', '-o', 'ServerAliveInterval=15', remote.destination, `${remote.command} serve --stdio`];
}

interface Pending {
  resolve: (answer: Answer<unknown>) => void;
  timer: NodeJS.Timeout;
}

/** A link to one remote. */
export class RemoteLink {
  readonly state: RemoteState;
  /** Grows with every change of `state`, so the hub can tell whether anything moved. */
  version = 0;
  /** Grows with every change of the board or of reachability. */
  boardVersion = 0;
  private child: ChildProcess | null = null;
  private connected = false;
  private disposed = false;
  private backoff = RECONNECT_MIN_MS;
  private retry: NodeJS.Timeout | null = null;
  private helloTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private stderrTail = '';
  private firstContact: Array<() => void> = [];
  private attempts = 0;
  private windowStart = 0;
  private windowFrames = 0;
  /** Issue 36: the remote's seats are guarded again here, so one bad seat never faults the whole link. */
  private readonly guard: RemoteSeatGuard;

  /** The remote as it was listed when the link was made (a changed entry makes a new link). */
  get remote(): Remote {
    return this.options.remote;
  }

  constructor(private readonly options: RemoteLinkOptions) {
    this.state = { name: options.remote.name, snapshot: null, board: null, unreachableSince: null, reason: null };
    this.guard = new RemoteSeatGuard(options.remote.name, options.log);
  }

  /** Starts the first connection. */
  start(): void {
    if (!this.child && !this.retry && !this.disposed) this.connect();
  }

  /** Resolves once the remote sent its first snapshot or failed once (or after `timeoutMs`). */
  settled(timeoutMs: number): Promise<void> {
    if (this.state.snapshot || this.state.unreachableSince || this.attempts > 0 && !this.child) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.firstContact.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** A request on the remote's contract; fails at once (code `unreachable`) while the remote is not connected. */
  request(channel: ChannelName, payload: unknown): Promise<Answer<unknown>> {
    if (!this.connected || !this.child?.stdin) return Promise.resolve({ ok: false, error: { code: 'unreachable', message: this.unreachableMessage() } });
    const id = this.nextId++;
    const line = encodeFrame({ id, channel, payload });
    if (line === null) return Promise.resolve({ ok: false, error: { code: 'invalid_request', message: 'The request is too large to send.' } });
    // A request that itself waits on the remote (`terminal.send`'s `waitMs`) gets that long on top.
    const waits = (payload as { waitMs?: unknown } | null)?.waitMs;
    const limitMs = REMOTE_REQUEST_TIMEOUT_MS + (typeof waits === 'number' && waits > 0 ? waits : 0);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ ok: false, error: { code: 'unreachable', message: `${this.state.name} did not answer ${channel} within ${limitMs / 1000} s.` } });
      }, limitMs);
      this.pending.set(id, { resolve, timer });
      this.child!.stdin!.write(line);
    });
  }

  /** Stops the link: ends the remote's stdin (it exits) and the ssh process. */
  dispose(): void {
    this.disposed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.drop('the host is stopping');
  }

  private unreachableMessage(): string {
    const { name, unreachableSince, reason } = this.state;
    if (unreachableSince) return `${name} is unreachable since ${clockTime(unreachableSince)}${reason ? ` (${reason})` : ''}; nothing changed. Try again once it is back.`;
    return `${name} is not connected yet; nothing changed. Try again in a moment.`;
  }

  private connect(): void {
    this.retry = null;
    this.attempts += 1;
    this.stderrTail = '';
    const { remote, ssh, env } = this.options;
    let child: ChildProcess;
    try {
      child = spawn(ssh, sshArguments(remote), { stdio: ['pipe', 'pipe', 'pipe'], env });
    } catch (error) {
      this.fault(`could not start ${ssh}: ${(error as Error).message}`);
      return;
    }
    this.child = child;
    const decoder = createLineDecoder((event) => this.onFrame(child, event));
    child.stdout!.on('data', (chunk: Buffer) => decoder.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    child.stdin!.on('error', () => undefined);
    child.on('error', (error) => this.fault(`could not start ${ssh}: ${error.message}`, child));
    child.on('close', (code, signal) => {
      decoder.end();
      const said = this.stderrTail.trim().split('\n').pop()?.trim();
      this.fault(said ? said : `ssh ended (${signal ?? `exit ${code}`})`, child);
    });
    child.stdin!.write(encodeFrame(helloFrame(this.options.appVersion))!);
    this.helloTimer = setTimeout(() => this.fault(`no hello within ${HELLO_TIMEOUT_MS / 1000} s`, child), HELLO_TIMEOUT_MS);
  }

  private onFrame(child: ChildProcess, event: FrameEvent): void {
    if (child !== this.child) return;
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowFrames = 0;
    }
    this.windowFrames += 1;
    if (this.windowFrames > MAX_REMOTE_FRAMES_PER_SECOND) return this.fault(`it flooded the stream (over ${MAX_REMOTE_FRAMES_PER_SECOND} frames in one second)`, child);
    const step = frameOrFault(event, LINK_FAULTS);
    if (step === null) return;
    if ('fault' in step) return this.fault(step.fault, child);
    const frame = step.frame;
    if (!this.connected) return this.onHello(child, frame);
    if (typeof frame.event === 'string') return this.onEvent(child, frame.event, frame.payload);
    if (typeof frame.id === 'number' && typeof frame.ok === 'boolean') {
      const pending = this.pending.get(frame.id);
      if (!pending) return;
      this.pending.delete(frame.id);
      clearTimeout(pending.timer);
      pending.resolve(frame.ok ? { ok: true, value: frame.value } : { ok: false, error: readError(frame.error) });
      return;
    }
    if (frame.ok === false) return; // an error about no request of ours (the remote refused a frame): nothing to resolve
    this.fault('it answered garbage (a frame that is neither an answer nor an event)', child);
  }

  private onHello(child: ChildProcess, frame: Record<string, unknown>): void {
    const hello = checkHello(frame, this.options.appVersion, 'remote');
    if (!hello.ok && hello.kind === 'mismatch') {
      this.state.skewed = true;
      return this.fault(skewSentence(this.options.appVersion, this.state.name, frame), child);
    }
    if (!hello.ok) return this.fault('it answered garbage instead of a hello', child);
    const error = (frame as { error?: unknown }).error;
    if (error) return this.fault(`refused: ${readError(error).message}`, child);
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.state.skewed = false;
    this.connected = true;
    this.backoff = RECONNECT_MIN_MS;
    void this.readWhole('fleet');
    void this.readWhole('jobs');
  }

  private async readWhole(what: 'fleet' | 'jobs'): Promise<void> {
    const child = this.child;
    const answer = what === 'fleet' ? await this.request('fleet.read', {}) : await this.request('jobs.list', { all: true });
    if (child !== this.child || !answer.ok) return;
    if (what === 'fleet') {
      const snapshot = channels['fleet.read'].response.safeParse(this.guard.snapshot(answer.value));
      this.state.contractNotice = this.guard.notice();
      if (!snapshot.success) return this.fault('it answered garbage (a snapshot that breaks the contract)', child ?? undefined);
      if (this.state.snapshot && this.state.unreachableSince === null && snapshot.data.cursor < this.state.snapshot.cursor) return;
      this.state.snapshot = snapshot.data;
      this.reached();
    } else {
      const board = channels['jobs.list'].response.safeParse(answer.value);
      if (!board.success) return this.fault('it answered garbage (a jobs board that breaks the contract)', child ?? undefined);
      this.state.board = board.data;
      this.changed('board');
    }
  }

  private onEvent(child: ChildProcess, name: string, payload: unknown): void {
    if (!isEvent(name)) return;
    const checked = parseEvent(name, this.guard.event(name, payload));
    this.state.contractNotice = this.guard.notice();
    if (!checked.ok) return this.fault(`it answered garbage (${checked.error.message})`, child);
    // Before the first whole read lands, changes wait for it (they may name a version not held yet).
    if (this.state.unreachableSince !== null) return;
    switch (name) {
      case 'fleet.changed':
        this.state.snapshot = (checked.value as { snapshot: RemoteState['snapshot'] }).snapshot;
        return this.changed();
      case 'fleet.patched': {
        const current = this.state.snapshot;
        const next = current ? applyFleetPatch(current, (checked.value as { patch: Parameters<typeof applyFleetPatch>[1] }).patch) : null;
        if (next) {
          this.state.snapshot = next;
          return this.changed();
        }
        return void this.readWhole('fleet');
      }
      case 'jobs.changed':
        this.state.board = (checked.value as { board: RemoteState['board'] }).board;
        return this.changed('board');
      case 'jobs.patched': {
        const current = this.state.board;
        const next = current ? applyJobsPatch(current, (checked.value as { patch: Parameters<typeof applyJobsPatch>[1] }).patch) : null;
        if (next) {
          this.state.board = next;
          return this.changed('board');
        }
        return void this.readWhole('jobs');
      }
      case 'notify.show':
        // The remote decided it (needs-you or a job reminder, by its own rules and clock): shown here, naming the host.
        return this.options.relay?.('notify.show', localNotification(this.state.name, checked.value as Notification));
      case 'terminal.output':
      case 'terminal.ended':
      case 'terminal.sent':
        // A terminal streamed (or replied to) through this link: carried to the page with the ids it knows.
        return this.options.relay?.(name, localTerminalEvent(this.state.name, checked.value as { personaId: string; streamId?: string }));
      default:
        // Focus requests of a remote stay on the remote.
        return;
    }
  }

  private reached(): void {
    this.state.unreachableSince = null;
    this.state.reason = null;
    this.changed('both');
    for (const resolve of this.firstContact.splice(0)) resolve();
  }

  private changed(what: 'fleet' | 'board' | 'both' = 'fleet'): void {
    if (what !== 'board') this.version += 1;
    if (what !== 'fleet') this.boardVersion += 1;
    this.options.onChange();
  }

  /** Ends the current process (if any) without scheduling anything. */
  private drop(reason: string): void {
    const child = this.child;
    this.child = null;
    this.connected = false;
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.helloTimer = null;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.resolve({ ok: false, error: { code: 'unreachable', message: `${this.state.name} dropped (${reason}); nothing is known to have changed.` } });
      this.pending.delete(id);
    }
    if (child) {
      child.stdin?.end();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    }
  }

  private fault(reason: string, child?: ChildProcess): void {
    if (this.disposed || (child !== undefined && child !== this.child)) return;
    this.drop(reason);
    if (this.state.unreachableSince === null) this.state.unreachableSince = new Date().toISOString();
    this.state.reason = reason;
    this.options.log(`pixelfleet: remote ${this.state.name}: ${reason}; retrying in ${this.backoff / 1000} s`);
    this.changed('both');
    for (const resolve of this.firstContact.splice(0)) resolve();
    this.retry = setTimeout(() => this.connect(), this.backoff);
    this.retry.unref?.();
    this.backoff = Math.min(this.backoff * 2, RECONNECT_MAX_MS);
  }
}

/** A remote's notification as shown here: its ids namespaced, its title naming the host the agent runs on. */
export function localNotification(host: string, note: Notification): Notification {
  return {
    ...note,
    seatId: remoteId(host, note.seatId),
    personaId: remoteId(host, note.personaId),
    title: `${note.title} on ${host}`,
    ...(note.job ? { job: { ...note.job, id: remoteId(host, note.job.id) } } : {}),
  };
}

/** A remote terminal event as shown here: the persona and the stream namespaced by host. */
export function localTerminalEvent<T extends { personaId: string; streamId?: string }>(host: string, payload: T): T {
  return { ...payload, personaId: remoteId(host, payload.personaId), ...(payload.streamId === undefined ? {} : { streamId: remoteId(host, payload.streamId) }) };
}

/** What a remote of another contract version needs, naming this host's version and (when it said) the remote's. */
export function skewSentence(appVersion: string, host: string, frame: Record<string, unknown>): string {
  const theirs = (frame as { hello?: { app?: unknown; contract?: unknown } }).hello;
  const said = typeof theirs?.app === 'string' ? `it runs Pixelfleet ${theirs.app.slice(0, 64)}, contract version ${String(theirs.contract)}; ` : '';
  return `needs Pixelfleet ${appVersion} on ${host} (${said}this host speaks contract version ${CONTRACT_VERSION} and Pixelfleet ${appVersion})`;
}

function readError(error: unknown): { code: string; message: string } {
  const value = error as { code?: unknown; message?: unknown } | null;
  return {
    code: typeof value?.code === 'string' ? value.code : 'internal',
    message: typeof value?.message === 'string' ? value.message : 'The remote refused the request.',
  };
}
