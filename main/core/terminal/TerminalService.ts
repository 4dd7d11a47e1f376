/**
 * A persona's terminal for the contract's handlers: locate, peek, send (and whether the harness took it), named keys,
 * dialog actions and live streams with a lease. Speaks of personas; the adapter owns tmux. Typed text goes to the
 * adapter and nowhere else: the `terminal.sent` event and the history's `reply.sent` carry the persona and the time.
 */
import { randomUUID } from 'node:crypto';
import type { EventName, EventOf } from '../../../shared/contract';
import { shownValue } from '../../../shared/bounds';
import type { Persona } from '../../../shared/schemas';
import { DIALOG_KEYS, isAllowedKey, NAMED_KEYS, PEEK_DEFAULT_LINES, sendTextProblem, type TerminalAction, type TerminalLocation } from '../../../shared/terminal';
import { resolveHarnessHomes } from '../../sources/readers/homes';
import { ServiceError } from '../../kit/errors';
import type { PersonaService } from '../personas/PersonaService';
import type { Pane, PaneMatch } from './adoption';
import { markRecords, waitForInput } from './harnessRecords';
import type { PaneStream } from './paneStream';
import type { TerminalAdapter } from './TerminalAdapter';

/** How long a stream lives without a renewal (the panel renews it every 20 s). */
export const STREAM_LEASE_MS = 60_000;
/** Most streams at once (each is one tmux control client). */
export const STREAMS_MAX = 16;
/** Output of a stream is sent at most this often (ms), so a busy pane is a few events a second, not one per write. */
const OUTPUT_COALESCE_MS = 15;
/** An event carries at most this much output (characters); more goes out at once in further events. */
const OUTPUT_EVENT_MAX = 64 * 1024;

/** What the service needs. */
export interface TerminalServiceOptions {
  adapter: TerminalAdapter;
  personas: PersonaService;
  env: NodeJS.ProcessEnv;
  emit<E extends EventName>(event: E, payload: EventOf<E>): void;
  /** Records that a reply was sent (persona and time only). */
  recordReply?(personaId: string, at: number): void;
  /**
   * The demo's agents are simulated: they have no terminals, and no pane is searched for them; only an agent launched
   * beside them (its tmux session tagged with its persona) has one.
   */
  demo?: boolean;
}

/** Why a demo agent has no terminal. */
export const DEMO_NO_TERMINAL = 'The demo’s agents are simulated: they have no terminals.';

interface Watch {
  personaId: string;
  stream: PaneStream;
  target: string;
  seq: number;
  expires: ReturnType<typeof setTimeout>;
}

/** A persona's terminal, as the handlers use it. */
export class TerminalService {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly options: TerminalServiceOptions) {}

  private async persona(who: string): Promise<Persona> {
    const persona = await this.options.personas.find(who);
    if (!persona) throw new ServiceError('not_found', `No persona with id or name ${JSON.stringify(shownValue(who))}.`);
    return persona;
  }

  /** True for a demo agent: in the demo, only a persona whose launched session is tagged with it has a terminal. */
  private async simulated(persona: Persona): Promise<boolean> {
    return this.options.demo === true && (await this.options.adapter.sessionTaggedWith(persona.id)) === null;
  }

  /** Where each persona's terminal is, in one pass. */
  async locateAll(personas: readonly Persona[]): Promise<Map<string, PaneMatch>> {
    return this.options.adapter.locate(personas);
  }

  /** Where a persona's terminal is, or why it has none. */
  async locate(who: string): Promise<TerminalLocation> {
    const persona = await this.persona(who);
    if (await this.simulated(persona)) return { personaId: persona.id, terminal: null, reason: DEMO_NO_TERMINAL, uncertain: false };
    const match = (await this.options.adapter.locate([persona])).get(persona.id)!;
    return match.ok ? { personaId: persona.id, terminal: match.terminal, reason: null, uncertain: false } : { personaId: persona.id, terminal: null, reason: match.reason, uncertain: match.uncertain };
  }

  private async pane(who: string): Promise<{ persona: Persona; pane: Pane; match: Extract<PaneMatch, { ok: true }> }> {
    const persona = await this.persona(who);
    if (await this.simulated(persona)) throw new ServiceError('unavailable', DEMO_NO_TERMINAL);
    const match = (await this.options.adapter.locate([persona])).get(persona.id)!;
    if (!match.ok) throw new ServiceError('unavailable', `${persona.name} has no terminal Pixelfleet can reach: ${match.reason}`);
    return { persona, pane: match.pane, match };
  }

  /** The last lines of a persona's terminal. */
  async peek(who: string, lines = PEEK_DEFAULT_LINES): Promise<{ persona: string; target: string; lines: string[] }> {
    const { persona, pane } = await this.pane(who);
    const peeked = await this.options.adapter.peek(pane, lines);
    if (!peeked.ok) throw new ServiceError('unavailable', peeked.reason);
    return { persona: persona.id, target: pane.target, lines: peeked.lines };
  }

  /** Types a line and presses Enter; with `waitMs`, waits until the harness's records show a new user turn. */
  async send(who: string, text: string, waitMs = 0): Promise<{ delivered: true; acknowledged: boolean }> {
    const problem = sendTextProblem(text);
    if (problem) throw new ServiceError('invalid_request', problem);
    const { persona, pane } = await this.pane(who);
    const mark = await markRecords(persona.seat, resolveHarnessHomes(this.options.env).claude);
    const sent = await this.options.adapter.send(pane, text);
    if (!sent.ok) throw new ServiceError('unavailable', sent.reason);
    const at = Date.now();
    this.options.recordReply?.(persona.id, at);
    this.options.emit('terminal.sent', { personaId: persona.id, at: new Date(at).toISOString() });
    const acknowledged = waitMs > 0 ? await waitForInput(mark, waitMs) : false;
    return { delivered: true, acknowledged };
  }

  /** Presses named keys, all or none. */
  async keys(who: string, keys: readonly string[]): Promise<{ delivered: true }> {
    const refused = keys.find((key) => !isAllowedKey(key));
    if (refused !== undefined) throw new ServiceError('invalid_request', `Only named keys (${NAMED_KEYS.join(' ')}) and single printable characters can be pressed; not ${JSON.stringify(shownValue(refused))}.`);
    const { pane } = await this.pane(who);
    const pressed = await this.options.adapter.keys(pane, keys);
    if (!pressed.ok) throw new ServiceError('unavailable', pressed.reason);
    return { delivered: true };
  }

  /** Approve, deny or interrupt with the keys the harness's own dialog takes. */
  async act(who: string, action: TerminalAction): Promise<{ delivered: true; keys: string[] }> {
    const { persona, pane, match } = await this.pane(who);
    const harness = match.harness ?? persona.seat?.harness;
    if (!harness) throw new ServiceError('unavailable', `Which harness runs in ${pane.target} is not known, so its dialog keys are not either.`);
    const keys = DIALOG_KEYS[harness][action];
    const pressed = await this.options.adapter.keys(pane, keys);
    if (!pressed.ok) throw new ServiceError('unavailable', pressed.reason);
    return { delivered: true, keys };
  }

  /** Starts a stream of a persona's pane, or renews one by its id. */
  async watch(who: string, streamId?: string): Promise<{ streamId: string; target: string; cols: number; rows: number; screen: string }> {
    if (streamId !== undefined) {
      const watch = this.watches.get(streamId);
      if (!watch) throw new ServiceError('not_found', 'That terminal stream has ended; open the terminal again.');
      this.renew(streamId, watch);
      return { streamId, target: watch.target, cols: watch.stream.cols, rows: watch.stream.rows, screen: '' };
    }
    if (this.watches.size >= STREAMS_MAX) throw new ServiceError('unavailable', `At most ${STREAMS_MAX} terminals can be watched at once; close one first.`);
    const { persona, pane } = await this.pane(who);
    const id = randomUUID();
    let seq = 0;
    let pending = '';
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      while (pending !== '') {
        const data = pending.slice(0, OUTPUT_EVENT_MAX);
        pending = pending.slice(data.length);
        this.options.emit('terminal.output', { streamId: id, personaId: persona.id, seq: (seq += 1), data });
      }
    };
    const started = await this.options.adapter.stream(pane, {
      output: (data) => {
        pending += data;
        if (pending.length >= OUTPUT_EVENT_MAX) flush();
        else timer ??= setTimeout(flush, OUTPUT_COALESCE_MS);
      },
      ended: (reason) => {
        if (timer) clearTimeout(timer);
        flush();
        const watch = this.watches.get(id);
        if (watch) clearTimeout(watch.expires);
        this.watches.delete(id);
        this.options.emit('terminal.ended', { streamId: id, personaId: persona.id, reason });
      },
    });
    if (!started.ok) throw new ServiceError('unavailable', started.reason);
    const watch: Watch = { personaId: persona.id, stream: started.stream, target: pane.target, seq: 0, expires: setTimeout(() => {}, 0) };
    this.watches.set(id, watch);
    this.renew(id, watch);
    return { streamId: id, target: pane.target, cols: started.stream.cols, rows: started.stream.rows, screen: started.stream.screen };
  }

  private renew(id: string, watch: Watch): void {
    clearTimeout(watch.expires);
    watch.expires = setTimeout(() => this.unwatch(id, 'Nobody renewed the stream.'), STREAM_LEASE_MS);
    watch.expires.unref?.();
  }

  /** Ends a stream. */
  unwatch(streamId: string, reason = 'Closed.'): { ended: boolean } {
    const watch = this.watches.get(streamId);
    if (!watch) return { ended: false };
    clearTimeout(watch.expires);
    this.watches.delete(streamId);
    watch.stream.stop();
    this.options.emit('terminal.ended', { streamId, personaId: watch.personaId, reason });
    return { ended: true };
  }

  /** Ends every stream. */
  dispose(): void {
    for (const id of [...this.watches.keys()]) this.unwatch(id, 'Pixelfleet stopped.');
  }
}
