/**
 * The contract's handlers with remotes: reads answer the merged world; a request naming a remote id (`@host:id`) goes
 * to that remote's own contract with the remote's id, so each machine stays the source of truth for its agents and
 * every seat path resolves on its own machine. A remote that is down fails such a request at once (`unreachable`).
 */
import type { ChannelName, ResponseOf } from '../../../shared/contract';
import type { Persona, Seat } from '../../../shared/schemas';
import { ServiceError } from '../../kit/errors';
import type { Handlers } from '../transport/router';
import { CLI_REMOTE_WAIT_MS } from './bounds';
import { localCandidate, localPersona, localSeat, remoteId, splitRemoteId } from './namespace';
import type { RemoteHub } from './RemoteHub';
import { mergeUsageReports } from './usageAcross';
import { lobbyAcross } from './lobbyAcross';

/** Options of the routing. */
export interface RouteOptions {
  /** One-shot commands wait for each remote's first answer before they read (a running host does not). */
  waitForRemotes: boolean;
}

/** The handlers, wrapped so reads merge remotes in and requests about remote records go to their host. */
export function routeRemotes(handlers: Handlers, hub: RemoteHub, options: RouteOptions): Handlers {
  const ready = async () => {
    if (options.waitForRemotes) await hub.settled(CLI_REMOTE_WAIT_MS);
  };
  const forward = async <C extends ChannelName>(host: string, channel: C, payload: unknown): Promise<ResponseOf<C>> => {
    await ready();
    const answer = await hub.forward(host, channel, payload);
    if (!answer.ok) throw new ServiceError(answer.error.code as ServiceError['code'], answer.error.message);
    return answer.value as ResponseOf<C>;
  };
  const persona = async (host: string, channel: 'personas.setRole' | 'personas.rename' | 'personas.moveSeat', payload: unknown): Promise<Persona> =>
    localPersona(host, await forward(host, channel, payload));

  return {
    ...handlers,
    'fleet.read': async (request) => {
      await ready();
      return hub.fleet(await handlers['fleet.read'](request));
    },
    'fleet.candidates': async (request) => {
      await ready();
      const local = await handlers['fleet.candidates'](request);
      const remote = await Promise.all(
        hub.states().map(async (state) => {
          const answer = state.unreachableSince === null ? await hub.forward(state.name, 'fleet.candidates', request) : null;
          return answer?.ok ? (answer.value as ResponseOf<'fleet.candidates'>).map((candidate) => localCandidate(state.name, candidate)) : [];
        }),
      );
      return [...local, ...remote.flat()];
    },
    'fleet.lobby': async (request) => {
      await ready();
      const local = await handlers['fleet.lobby'](request);
      const answers = await Promise.all(
        hub.states().map(async (state) => ({ state, answer: state.unreachableSince === null ? await hub.forward(state.name, 'fleet.candidates', { ...(request.refresh === undefined ? {} : { refresh: request.refresh }) }) : null })),
      );
      return lobbyAcross(local, answers);
    },
    'jobs.list': async (request) => {
      await ready();
      const board = hub.board(await handlers['jobs.list']({ all: true }));
      return request.all ? board : { ...board, jobs: board.jobs.filter((job) => job.state === 'running') };
    },
    'usage.read': async (request) => {
      await ready();
      const local = await handlers['usage.read'](request);
      const remotes = await Promise.all(
        hub.states().map(async (state) => {
          const answer = state.unreachableSince === null ? await hub.forward(state.name, 'usage.read', request) : null;
          return { state, report: answer?.ok ? (answer.value as ResponseOf<'usage.read'>) : null };
        }),
      );
      return mergeUsageReports(local, remotes);
    },
    'seats.open': async (request) => {
      const remote = splitRemoteId(request.candidateId);
      if (!remote) return handlers['seats.open'](request);
      const opened = await forward(remote.host, 'seats.open', { ...request, candidateId: remote.id });
      return { seat: localSeat(remote.host, opened.seat as Seat, null), persona: localPersona(remote.host, opened.persona) };
    },
    'seats.close': async (request) => {
      const remote = splitRemoteId(request.seatId);
      return remote ? forward(remote.host, 'seats.close', { seatId: remote.id }) : handlers['seats.close'](request);
    },
    'subagents.replay': async (request) => {
      const remote = splitRemoteId(request.seat);
      return remote ? forward(remote.host, 'subagents.replay', { ...request, seat: remote.id }) : handlers['subagents.replay'](request);
    },
    'personas.setRole': async (request) => {
      const remote = splitRemoteId(request.personaId);
      return remote ? persona(remote.host, 'personas.setRole', { ...request, personaId: remote.id }) : handlers['personas.setRole'](request);
    },
    'personas.rename': async (request) => {
      const remote = splitRemoteId(request.personaId);
      return remote ? persona(remote.host, 'personas.rename', { ...request, personaId: remote.id }) : handlers['personas.rename'](request);
    },
    'personas.moveSeat': async (request) => {
      const remote = splitRemoteId(request.personaId);
      if (!remote) return handlers['personas.moveSeat'](request);
      // A seat address names files on one machine: a remote agent can only be unseated from here, never moved.
      if (request.seat !== null) throw new ServiceError('invalid_request', 'A remote agent’s seat is chosen on its own machine; from here it can only be unseated.');
      return persona(remote.host, 'personas.moveSeat', { ...request, personaId: remote.id });
    },
    'agents.launch': async (request) => {
      // Launched by the remote's own launcher, in its tmux, with its homes: the persona comes back namespaced.
      const { host, ...rest } = request;
      if (host === undefined) return handlers['agents.launch'](rest);
      const launched = await forward(host, 'agents.launch', rest);
      return { ...launched, persona: localPersona(host, launched.persona) };
    },
    'work.dispatchHere': async (request) => {
      // A dispatch carried out on a remote (issue 42): its worktree, launch or send there; the persona comes back namespaced.
      const { host, ...rest } = request;
      if (host === undefined) return handlers['work.dispatchHere'](rest);
      const carried = await forward(host, 'work.dispatchHere', rest);
      return { ...carried, personaId: remoteId(host, carried.personaId), launch: carried.launch ? { ...carried.launch, persona: localPersona(host, carried.launch.persona) } : null };
    },
    'agents.attach': async (request) => {
      const remote = splitRemoteId(request.personaId);
      return remote ? forward(remote.host, 'agents.attach', { personaId: remote.id }) : handlers['agents.attach'](request);
    },
    // A remote persona's terminal is on its own host: each request goes there with the remote's own id (issue 39).
    'terminal.locate': async (request) => {
      const remote = splitRemoteId(request.personaId);
      if (!remote) return handlers['terminal.locate'](request);
      return { ...(await forward(remote.host, 'terminal.locate', { ...request, personaId: remote.id })), personaId: request.personaId };
    },
    'terminal.peek': async (request) => {
      const remote = splitRemoteId(request.personaId);
      if (!remote) return handlers['terminal.peek'](request);
      return { ...(await forward(remote.host, 'terminal.peek', { ...request, personaId: remote.id })), persona: request.personaId };
    },
    'terminal.send': async (request) => {
      const remote = splitRemoteId(request.personaId);
      return remote ? forward(remote.host, 'terminal.send', { ...request, personaId: remote.id }) : handlers['terminal.send'](request);
    },
    'terminal.keys': async (request) => {
      const remote = splitRemoteId(request.personaId);
      return remote ? forward(remote.host, 'terminal.keys', { ...request, personaId: remote.id }) : handlers['terminal.keys'](request);
    },
    'terminal.act': async (request) => {
      const remote = splitRemoteId(request.personaId);
      return remote ? forward(remote.host, 'terminal.act', { ...request, personaId: remote.id }) : handlers['terminal.act'](request);
    },
    'terminal.watch': async (request) => {
      // A remote pane is streamed on its host; its output comes back over the remote's stream (RemoteLink relays it).
      const remote = splitRemoteId(request.personaId);
      if (!remote) return handlers['terminal.watch'](request);
      const stream = request.streamId === undefined ? null : splitRemoteId(request.streamId);
      const watched = await forward(remote.host, 'terminal.watch', { personaId: remote.id, ...(stream ? { streamId: stream.id } : {}) });
      return { ...watched, streamId: remoteId(remote.host, watched.streamId) };
    },
    'terminal.unwatch': async (request) => {
      const remote = splitRemoteId(request.streamId);
      return remote ? forward(remote.host, 'terminal.unwatch', { streamId: remote.id }) : handlers['terminal.unwatch'](request);
    },
    'agents.openTerminal': async (request) => {
      const remote = splitRemoteId(request.personaId);
      if (!remote) return handlers['agents.openTerminal'](request);
      return { opened: false, reason: 'A remote agent’s terminal is on its own machine: attach there over ssh.' };
    },
  };
}
