/**
 * A small seeded PRNG and the id shapes Claude Code writes, so a demo fleet is reproducible from its seed.
 */

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/** mulberry32: a tiny, fast 32-bit PRNG; good enough for demo prose and timing, not for anything secret. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [low, high], both inclusive. */
export function randomInt(random: Random, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

/** One element of a non-empty list. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** True with the given probability (0..1). */
export function chance(random: Random, probability: number): boolean {
  return random() < probability;
}

const HEX = '0123456789abcdef';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function draw(random: Random, alphabet: string, length: number): string {
  let out = '';
  for (let index = 0; index < length; index += 1) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** Makers of the native id shapes; `mark` (if set) replaces a fixed-length slice so ids can be rewritten per copy. */
export interface IdMaker {
  uuid(): string;
  agentId(): string;
  toolUseId(): string;
  messageId(): string;
  requestId(): string;
}

/**
 * Creates id makers drawing from `random`. With `mark` (exactly four characters), every id embeds it, so a block
 * of lines can be copied with fresh ids by replacing the mark (the bench journal writer does this).
 */
export function createIdMaker(random: Random, mark = ''): IdMaker {
  if (mark !== '' && mark.length !== 4) throw new Error('id mark must be exactly four characters');
  const hex = (length: number) => mark + draw(random, HEX, length - mark.length);
  return {
    uuid: () => {
      const body = draw(random, HEX, 32);
      const variant = HEX[8 + Math.floor(random() * 4)];
      return `${body.slice(0, 8)}-${body.slice(8, 12)}-4${body.slice(13, 16)}-${variant}${body.slice(17, 20)}-${mark}${body.slice(20 + mark.length)}`;
    },
    // 'a' + 16 hex: the agent id shape of Claude Code 2.1.63 and later.
    agentId: () => `a${hex(16)}`,
    toolUseId: () => `toolu_01${mark}${draw(random, BASE62, 22 - mark.length)}`,
    messageId: () => `msg_01${mark}${draw(random, BASE62, 22 - mark.length)}`,
    requestId: () => `req_011${mark}${draw(random, BASE62, 21 - mark.length)}`,
  };
}
