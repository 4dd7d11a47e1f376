// The one replay cursor: a round trip keeps its state, and a tampered, foreign, oversized or other-version token
// gets its one refusal before any harness reads a byte.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { comparePositions, CURSOR_REFUSALS, decodeCursor, encodeCursor, type CursorOwner } from './cursor';
import { LINE_POSITION } from './pager';
import { REPLAY_CURSOR_CHARS } from './bounds';

const owner: CursorOwner = { harness: 'claude', ids: ['aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', 'toolu_01'] };
const state = { source: '4242', floor: [10, 0] as [number, number], before: [900, 2] as [number, number], mark: 'AAAAAAAAAAAA' };

/** The token with its payload replaced by `edit` of the payload's JSON, the check left as it was. */
function withPayload(token: string, edit: (body: Record<string, unknown>) => Record<string, unknown>): string {
  const [version, payload, check] = token.split('.');
  const body = edit(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>);
  return [version, Buffer.from(JSON.stringify(body)).toString('base64url'), check].join('.');
}

describe('the replay cursor', () => {
  it('gives back the state it was issued with, for its owner only', () => {
    const token = encodeCursor(owner, state);
    expect(token).toMatch(/^rp1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(token, owner, LINE_POSITION)).toEqual({ ok: true, state });
    const text = z.tuple([z.number(), z.string()]);
    expect(decodeCursor(encodeCursor(owner, { ...state, source: null, floor: [1, 'msg_a'], before: [1, 'msg_b'] }), owner, text)).toEqual({ ok: true, state: { ...state, source: null, floor: [1, 'msg_a'], before: [1, 'msg_b'] } });
  });

  it('refuses a tampered token: an edited position, a flipped character, a hand-made one', () => {
    const token = encodeCursor(owner, state);
    const refused = { ok: false, refusal: 'damaged' };
    expect(decodeCursor(withPayload(token, (body) => ({ ...body, b: [5_000_000, 0] })), owner, LINE_POSITION)).toEqual(refused);
    const flipped = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
    expect(decodeCursor(flipped, owner, LINE_POSITION)).toEqual(refused);
    for (const made of ['not-a-cursor', '!!', '', 'rp1.e30.AAAA', `rp1.${Buffer.from('[]').toString('base64url')}.x`]) {
      expect(decodeCursor(made, owner, LINE_POSITION)).toEqual(refused);
    }
  });

  it("refuses a position its harness's schema rejects, a window whose floor is not before its end, a bad mark", () => {
    const refused = { ok: false, refusal: 'damaged' };
    expect(decodeCursor(encodeCursor(owner, { ...state, before: [-1, 0] }), owner, LINE_POSITION)).toEqual(refused);
    expect(decodeCursor(encodeCursor(owner, { ...state, before: ['900', 2] }), owner, LINE_POSITION)).toEqual(refused);
    expect(decodeCursor(encodeCursor(owner, { ...state, floor: [900, 2] }), owner, LINE_POSITION)).toEqual(refused);
    expect(decodeCursor(encodeCursor(owner, { ...state, mark: 'not a mark' }), owner, LINE_POSITION)).toEqual(refused);
  });

  it('refuses a cursor of another harness, another seat or another call as foreign', () => {
    const token = encodeCursor(owner, state);
    for (const other of [{ ...owner, harness: 'codex' as const }, { ...owner, ids: ['another-session', 'toolu_01'] }, { ...owner, ids: [owner.ids[0], 'toolu_02'] }, { ...owner, ids: [owner.ids[0]] }]) {
      expect(decodeCursor(token, other, LINE_POSITION)).toEqual({ ok: false, refusal: 'foreign' });
    }
  });

  it('refuses an oversized token before reading it, and one from another version', () => {
    expect(decodeCursor(`rp1.${'A'.repeat(REPLAY_CURSOR_CHARS)}.AAAA`, owner, LINE_POSITION)).toEqual({ ok: false, refusal: 'oversized' });
    expect(decodeCursor(encodeCursor(owner, state).replace(/^rp1\./, 'rp2.'), owner, LINE_POSITION)).toEqual({ ok: false, refusal: 'version' });
  });

  it('stays within the bound with the longest ids a request and a harness may carry', () => {
    // A session id of 200 three-byte characters (the contract's id bound), OpenCode's longest call and row ids.
    const longest: CursorOwner = { harness: 'opencode', ids: ['€'.repeat(200), 'x'.repeat(128)] };
    const id = 'm'.repeat(128);
    const token = encodeCursor(longest, { mark: 'A'.repeat(12), source: `ses_${'c'.repeat(64)}`, floor: [Number.MAX_SAFE_INTEGER, id, id, 9999], before: [Number.MAX_SAFE_INTEGER, id, id, 10000] });
    expect(token.length).toBeLessThanOrEqual(REPLAY_CURSOR_CHARS);
  });

  it('says what the owner can do in every refusal', () => {
    for (const sentence of Object.values(CURSOR_REFUSALS)) expect(sentence).toMatch(/^Refused: .+\. Open (this subagent's |the )replay again without a cursor/);
  });

  it('orders positions element by element', () => {
    expect(comparePositions([1, 'b', 0], [1, 'b', 1])).toBeLessThan(0);
    expect(comparePositions([2, 'a'], [1, 'z'])).toBeGreaterThan(0);
    expect(comparePositions([1, 'msg_b'], [1, 'msg_a'])).toBeGreaterThan(0);
    expect(comparePositions([5, 3], [5, 3])).toBe(0);
  });
});
