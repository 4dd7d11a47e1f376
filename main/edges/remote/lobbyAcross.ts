/**
 * The lobby across machines (issue 38): the local sessions with each remote's, listed under its host, and every
 * remote that could not list its own named with why (unreachable since when, or the error it answered), never
 * silently left out. Pure.
 */
import type { Answer, ResponseOf } from '../../../shared/contract';
import type { RemoteState } from './remoteState';
import { clockTime, localCandidate } from './namespace';

/** One remote's answer to `fleet.candidates`; null when it was not asked (it was unreachable). */
export interface RemoteCandidates {
  state: RemoteState;
  answer: Answer<unknown> | null;
}

/** Why a remote's sessions are not listed, as a sentence. */
function unreachableReason(state: RemoteState): string {
  if (state.skewed && state.reason) return state.reason;
  const since = state.unreachableSince === null ? 'unreachable' : `unreachable since ${clockTime(state.unreachableSince)}`;
  return state.reason ? `${since}: ${state.reason}` : since;
}

/** The lobby's answer: local candidates, then each answering remote's under its host; the rest in `unreachable`. */
export function lobbyAcross(local: ResponseOf<'fleet.lobby'>, remotes: readonly RemoteCandidates[]): ResponseOf<'fleet.lobby'> {
  const candidates = [...local.candidates];
  const unreachable = [...local.unreachable];
  for (const { state, answer } of remotes) {
    if (answer === null) unreachable.push({ host: state.name, reason: unreachableReason(state) });
    else if (!answer.ok) unreachable.push({ host: state.name, reason: `could not list its sessions: ${answer.error.message}` });
    else for (const candidate of answer.value as ResponseOf<'fleet.candidates'>) candidates.push(localCandidate(state.name, candidate));
  }
  unreachable.sort((first, second) => first.host.localeCompare(second.host));
  return { candidates, unreachable };
}
