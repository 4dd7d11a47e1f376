/**
 * 5-hour blocks of Claude usage (issue 41), an estimate cut from the minute buckets. Pure.
 *
 * B1. Messages in time order; a message starts a new block when it comes more than 5 h after the block's start or
 *     more than 5 h after the message before it.
 * B2. A block starts at its first message's time floored to the (UTC) hour and ends 5 h later.
 * B3. A block is active while now is before its end and its last message is under 5 h old.
 * B4. The active block's burn rate is its tokens (all four kinds) over the minutes from its first to its last
 *     message (none when they are the same instant); its projection adds that rate until the block's end.
 * B5. Cost is priced from the dated table, an estimate; a block with any unpriced message has no cost.
 */
import type { Block } from '../../../shared/pace';
import type { MinuteBucket, Minutes } from '../../kit/usage/minutes';
import { mergeMinutes } from '../../kit/usage/minutes';

/** A block's length and the gap that ends one (ms): 5 hours. */
const BLOCK_MS = 5 * 3_600_000;
const HOUR_MS = 3_600_000;

interface Open {
  startMs: number;
  firstMs: number;
  lastMs: number;
  sums: number[];
}

/** The blocks of the given minute buckets (several files' merged), oldest first, as at `nowMs`. */
export function blocksOf(sources: readonly Minutes[], nowMs: number): Block[] {
  const all: Minutes = {};
  for (const minutes of sources) mergeMinutes(all, minutes);
  const buckets: MinuteBucket[] = Object.keys(all)
    .sort((left, right) => Number(left) - Number(right))
    .map((key) => all[key]);
  const blocks: Block[] = [];
  let open: Open | null = null;
  for (const bucket of buckets) {
    const at = bucket[0];
    if (open === null || at - open.startMs > BLOCK_MS || at - open.lastMs > BLOCK_MS) {
      // Rules B1, B2.
      if (open) blocks.push(closeBlock(open, nowMs));
      open = { startMs: Math.floor(at / HOUR_MS) * HOUR_MS, firstMs: at, lastMs: at, sums: [0, 0, 0, 0, 0, 0, 0] };
    }
    open.lastMs = Math.max(open.lastMs, bucket[1]);
    for (let index = 0; index < 7; index += 1) open.sums[index] += bucket[index + 2];
  }
  if (open) blocks.push(closeBlock(open, nowMs));
  return blocks;
}

function closeBlock(open: Open, nowMs: number): Block {
  const [input, output, cacheRead, cacheWrite, usd, unpriced, entries] = open.sums;
  const endMs = open.startMs + BLOCK_MS;
  const active = nowMs < endMs && nowMs - open.lastMs < BLOCK_MS; // rule B3
  const cost = unpriced > 0 ? null : { usd: round6(usd), estimated: true };
  const block: Block = {
    start: new Date(open.startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    lastEntry: new Date(open.lastMs).toISOString(),
    active,
    totals: { input, output, cacheRead, cacheWrite },
    cost,
    entries,
  };
  const minutes = (open.lastMs - open.firstMs) / 60_000;
  if (active && minutes > 0) {
    // Rule B4.
    const tokens = input + output + cacheRead + cacheWrite;
    const tokensPerMinute = tokens / minutes;
    const usdPerHour = cost === null ? null : (cost.usd / minutes) * 60;
    const left = Math.max(0, (endMs - nowMs) / 60_000);
    block.burn = { tokensPerMinute: round6(tokensPerMinute), usdPerHour: usdPerHour === null ? null : round6(usdPerHour) };
    block.projected = { tokens: Math.round(tokens + tokensPerMinute * left), usd: cost === null || usdPerHour === null ? null : round6(cost.usd + (usdPerHour * left) / 60) };
  }
  return block;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
