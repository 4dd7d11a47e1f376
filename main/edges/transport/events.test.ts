import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../../shared/contract';
import { createEventStream } from './events';

describe('the event stream', () => {
  it('sends a valid event to every listener, and no longer to a removed one', () => {
    const stream = createEventStream(() => {});
    const first: unknown[] = [];
    const second: unknown[] = [];
    const off = stream.onEvent((event, payload) => first.push([event, payload]));
    stream.onEvent((event, payload) => second.push([event, payload]));
    stream.emit('agent.focus', { personaId: 'p-1' });
    off();
    stream.emit('agent.focus', { personaId: 'p-2' });
    expect(first).toEqual([['agent.focus', { personaId: 'p-1' }]]);
    expect(second).toEqual([
      ['agent.focus', { personaId: 'p-1' }],
      ['agent.focus', { personaId: 'p-2' }],
    ]);
  });

  it('does not send a payload that breaks the contract, and logs one line saying why', () => {
    const logged: string[] = [];
    const stream = createEventStream((message) => logged.push(message));
    const seen: unknown[] = [];
    stream.onEvent((_event, payload) => seen.push(payload));
    stream.emit('fleet.changed', { snapshot: { cursor: 'not a number' } } as unknown as EventOf<'fleet.changed'>);
    stream.emit('notify.show', { seatId: 's', personaId: 'p', title: 't', body: 'b', why: 'bored', certain: true, sound: false } as unknown as EventOf<'notify.show'>);
    expect(seen).toEqual([]);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^pixelfleet: not sent: fleet\.changed: /);
    expect(logged[1]).toMatch(/^pixelfleet: not sent: notify\.show: /);
  });

  it('keeps sending to the other listeners when one throws', () => {
    const logged: string[] = [];
    const stream = createEventStream((message) => logged.push(message));
    const seen: string[] = [];
    stream.onEvent(() => {
      throw new Error('listener broke');
    });
    stream.onEvent((_event, payload) => seen.push((payload as { personaId: string }).personaId));
    stream.emit('agent.focus', { personaId: 'p-3' });
    expect(seen).toEqual(['p-3']);
    expect(logged).toEqual(['pixelfleet: agent.focus listener failed: listener broke']);
  });
});
