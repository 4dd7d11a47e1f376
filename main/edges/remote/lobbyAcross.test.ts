// The lobby across machines (issue 38): a remote that cannot list its sessions is named with why, never dropped.
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../shared/schemas';
import { lobbyAcross } from './lobbyAcross';
import type { RemoteState } from './remoteState';

const candidate = (id: string): Candidate => ({ id: `claude:${id}`, harness: 'claude', seat: { harness: 'claude', home: '/h', sessionId: id }, cwdHint: '/work', lastActivity: '2026-12-07T06:00:00.000Z', size: 10 });
const state = (name: string, extra: Partial<RemoteState> = {}): RemoteState => ({ name, snapshot: null, board: null, unreachableSince: null, reason: null, ...extra });

describe('the lobby across machines', () => {
  it('lists answering remotes under their host and names each other one with why: unreachable since when, refused, or an error answered', () => {
    const local = { candidates: [candidate('here')], unreachable: [] };
    const down = state('beta', { unreachableSince: new Date(2026, 11, 7, 6, 40).toISOString(), reason: 'ssh: connect to host beta port 22: Connection refused' });
    const skewed = state('old', { unreachableSince: new Date().toISOString(), reason: 'needs Pixelfleet 0.1.0 on old (it runs 0.0.9)', skewed: true });
    const lobby = lobbyAcross(local, [
      { state: state('alpha'), answer: { ok: true, value: [candidate('there')] } },
      { state: down, answer: null },
      { state: state('gamma'), answer: { ok: false, error: { code: 'unreachable', message: 'the remote did not answer in 10 s' } } },
      { state: skewed, answer: null },
    ]);
    expect(lobby.candidates.map((entry) => [entry.id, entry.host])).toEqual([['claude:here', undefined], ['@alpha:claude:there', 'alpha']]);
    expect(lobby.unreachable).toEqual([
      { host: 'beta', reason: 'unreachable since 06:40: ssh: connect to host beta port 22: Connection refused' },
      { host: 'gamma', reason: 'could not list its sessions: the remote did not answer in 10 s' },
      { host: 'old', reason: 'needs Pixelfleet 0.1.0 on old (it runs 0.0.9)' },
    ]);
  });
});
