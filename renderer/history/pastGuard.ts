/**
 * No gesture writes while the world shows the past: the store's bridge refuses every channel that would change the
 * fleet (roles, seats, hires, launches, profiles) with a sentence for the owner, before anything is sent. Reads pass.
 */
import { BridgeError, type Bridge } from '../bridge';
import type { ChannelName } from '../../shared/contract';

/** The channels that change the fleet or its files: refused while the world shows the past. */
export const WRITING_CHANNELS: ReadonlySet<ChannelName> = new Set<ChannelName>([
  'personas.setRole',
  'personas.moveSeat',
  'personas.rename',
  'seats.open',
  'seats.close',
  'agents.hire',
  'agents.launch',
  'work.dispatch',
  'work.dispatchHere',
  'work.undispatch',
  'work.done',
  'roles.saveProfile',
  'roles.export',
]);

/** The refusal's code and words. */
export const PAST_REFUSAL = { code: 'history_past', message: 'The world shows the past: return to Live to change the fleet' } as const;

/** The bridge as the store uses it: `isPast()` true refuses the writing channels. */
export function guardPast(bridge: Bridge, isPast: () => boolean): Bridge {
  return {
    kind: bridge.kind,
    invoke(channel, request) {
      if (WRITING_CHANNELS.has(channel) && isPast()) return Promise.reject(new BridgeError(PAST_REFUSAL));
      return bridge.invoke(channel, request);
    },
    on: (event, listener) => bridge.on(event, listener),
    onReconnected: (listener) => bridge.onReconnected(listener),
    close: () => bridge.close(),
  };
}
