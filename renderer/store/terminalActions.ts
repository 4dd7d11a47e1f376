/**
 * Acting from the world (issue 39): reply, approve, deny, interrupt, press keys, and the terminal panel's stream. It
 * keeps one fact of its own: which agents were sent a reply and when (from main's `terminal.sent`, so every page and
 * the CLI agree), shown as "sent" until the fleet says the agent took it — the entry then leaves the queue as before.
 * Typed text goes to the bridge and nowhere else. While the world shows the past, nothing is sent.
 */
import type { Bridge } from '../bridge';
import type { EventOf, ResponseOf } from '../../shared/contract';
import type { TerminalAction } from '../../shared/terminal';
import type { FleetSnapshot } from '../../shared/schemas';
import { describeFailure, type AppStore } from './createAppStore';
import { inPast } from './historyActions';

/** The outcome of an act: done, or the sentence that says why not. */
export type ActOutcome = { ok: true } | { ok: false; reason: string };

/** A live stream as the panel holds it. */
export type TerminalStream = ResponseOf<'terminal.watch'>;

/** Acting on agents' terminals over the page's bridge. */
export class TerminalActions {
  /** Agents sent a reply whose entry has not left the queue yet: persona id → when (ISO). */
  readonly sent = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private readonly outputs = new Map<string, (event: EventOf<'terminal.output'>) => void>();
  private readonly ends = new Map<string, (event: EventOf<'terminal.ended'>) => void>();

  constructor(
    private readonly bridge: Bridge,
    private readonly store: AppStore,
  ) {
    bridge.on('terminal.sent', ({ personaId, at }) => {
      this.sent.set(personaId, at);
      this.changed();
    });
    bridge.on('terminal.output', (event) => this.outputs.get(event.streamId)?.(event));
    bridge.on('terminal.ended', (event) => this.ends.get(event.streamId)?.(event));
    // "sent" holds until the agent no longer needs the owner for the wait the reply answered.
    store.subscribe((state, previous) => {
      if (state.fleet !== previous.fleet) this.settle(state.fleet);
    });
  }

  /** Calls `listener` whenever the sent marks change; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Drops the marks of agents whose wait ended, or who began a new wait after the reply. */
  private settle(fleet: FleetSnapshot | null): void {
    let dropped = false;
    for (const [personaId, at] of this.sent) {
      const seat = fleet?.seats.find((entry) => entry.personaId === personaId);
      const waiting = seat?.activity.state === 'needs-you';
      const since = seat?.activity.since ? Date.parse(seat.activity.since) : Number.NaN;
      if (!waiting || (!Number.isNaN(since) && since > Date.parse(at))) {
        this.sent.delete(personaId);
        dropped = true;
      }
    }
    if (dropped) this.changed();
  }

  private refusedInPast(): ActOutcome | null {
    return inPast(this.store.getState()) ? { ok: false, reason: 'The world shows the past: go back to live to act.' } : null;
  }

  private async attempt(work: () => Promise<unknown>): Promise<ActOutcome> {
    const past = this.refusedInPast();
    if (past) return past;
    try {
      await work();
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: describeFailure(error) };
    }
  }

  /** Types a reply and presses Enter. */
  reply(personaId: string, text: string): Promise<ActOutcome> {
    return this.attempt(() => this.bridge.invoke('terminal.send', { personaId, text }));
  }

  /** Approve, deny or interrupt through the harness's own keys. */
  act(personaId: string, action: TerminalAction): Promise<ActOutcome> {
    return this.attempt(() => this.bridge.invoke('terminal.act', { personaId, action }));
  }

  /** Presses named keys (the panel's Type mode). */
  keys(personaId: string, keys: string[]): Promise<ActOutcome> {
    return this.attempt(() => this.bridge.invoke('terminal.keys', { personaId, keys }));
  }

  /** Where the agent's terminal is, or null with the reason. */
  async locate(personaId: string): Promise<ResponseOf<'terminal.locate'> | null> {
    try {
      return await this.bridge.invoke('terminal.locate', { personaId });
    } catch {
      return null;
    }
  }

  /** Starts a stream; output and its end go to the handlers until `unwatch`. */
  async watch(personaId: string, onOutput: (data: string) => void, onEnded: (reason: string) => void): Promise<TerminalStream> {
    const stream = await this.bridge.invoke('terminal.watch', { personaId });
    this.outputs.set(stream.streamId, (event) => onOutput(event.data));
    this.ends.set(stream.streamId, (event) => {
      this.forget(stream.streamId);
      onEnded(event.reason);
    });
    return stream;
  }

  /** Renews a stream's lease. */
  async renew(personaId: string, streamId: string): Promise<boolean> {
    try {
      await this.bridge.invoke('terminal.watch', { personaId, streamId });
      return true;
    } catch {
      return false;
    }
  }

  private forget(streamId: string): void {
    this.outputs.delete(streamId);
    this.ends.delete(streamId);
  }

  /** Ends a stream. */
  async unwatch(streamId: string): Promise<void> {
    this.forget(streamId);
    await this.bridge.invoke('terminal.unwatch', { streamId }).catch(() => undefined);
  }
}
