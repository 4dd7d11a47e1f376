import { describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { SeatStates } from './seatStates';

const seat = (sessionId: string): SeatAddress => ({ harness: 'codex', home: '/h', sessionId, cwd: null, path: null });

describe('the per-seat state map', () => {
  it('serialises the reads of one seat and lets other seats run between them', async () => {
    const states = new SeatStates(() => ({ log: [] as string[] }));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const first = states.run(seat('a'), async (state) => {
      await gate;
      state.log.push('first');
      order.push('a1');
    });
    const second = states.run(seat('a'), async (state) => {
      state.log.push('second');
      order.push('a2');
    });
    await states.run(seat('b'), async () => {
      order.push('b');
    });
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['b', 'a1', 'a2']);
    expect(states.peek(seat('a'))?.log).toEqual(['first', 'second']);
  });

  it('goes on after a read that failed', async () => {
    const states = new SeatStates(() => ({ reads: 0 }));
    await expect(states.run(seat('a'), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await states.run(seat('a'), async (state) => ++state.reads)).toBe(1);
  });

  it('is bounded, dropping the oldest seat, and drops a seat that closes', async () => {
    const states = new SeatStates(() => ({}), undefined, 2);
    for (const id of ['a', 'b', 'c']) await states.run(seat(id), async () => undefined);
    expect(states.size).toBe(2);
    expect(states.peek(seat('a'))).toBeUndefined();
    states.forget(seat('b'));
    expect(states.peek(seat('b'))).toBeUndefined();
    expect(states.peek(seat('c'))).toBeDefined();
  });
});
