/** Which speech bubble a character shows for its activity, and the bubbles' pixel glyphs. Pure (no Pixi). */
import type { Activity } from '../../shared/schemas';

/** A bubble over a character; null shows none (working agents animate instead). */
export type BubbleKind = 'question' | 'approval' | 'approval-uncertain' | 'turn-done' | 'interrupted' | 'error' | 'idle' | null;

/** The bubble for an activity: question and plan "?", approval "!" (dimmed "!?" when inferred), turn-done "…". */
export function bubbleKind(activity: Activity): BubbleKind {
  if (activity.state === 'idle') return 'idle';
  if (activity.state !== 'needs-you') return null;
  switch (activity.why) {
    case 'question':
    case 'plan':
      return 'question';
    case 'approval':
      return activity.certain ? 'approval' : 'approval-uncertain';
    case 'turn-done':
      return 'turn-done';
    case 'interrupted':
      return 'interrupted';
    case 'error':
      return 'error';
    case undefined:
      return null;
    default:
      return activity.why satisfies never;
  }
}

/** Glyphs drawn into bubbles, 5 rows of "#" (on) and "." (off); 3 wide, and "…" three 2×2 dots so it reads at scale 1. */
export const BUBBLE_GLYPHS: Record<string, readonly string[]> = {
  '?': ['##.', '..#', '.#.', '...', '.#.'],
  '!': ['.#.', '.#.', '.#.', '...', '.#.'],
  '…': ['........', '........', '........', '##.##.##', '##.##.##'],
  x: ['...', '#.#', '.#.', '#.#', '...'],
  z: ['...', '###', '.#.', '#..', '###'],
};

/** What each bubble shows: its glyphs, colours and opacity. */
export const BUBBLE_STYLE: Record<Exclude<BubbleKind, null>, { glyphs: string; fill: number; ink: number; alpha: number }> = {
  question: { glyphs: '?', fill: 0xfff6dc, ink: 0x2a1f2a, alpha: 1 },
  approval: { glyphs: '!', fill: 0xffd23f, ink: 0x2a1f2a, alpha: 1 },
  'approval-uncertain': { glyphs: '!?', fill: 0xffd23f, ink: 0x2a1f2a, alpha: 0.6 },
  'turn-done': { glyphs: '…', fill: 0xfff6dc, ink: 0x2a1f2a, alpha: 1 },
  interrupted: { glyphs: 'x', fill: 0xc9b6a0, ink: 0x2a1f2a, alpha: 1 },
  error: { glyphs: '!', fill: 0xe2453d, ink: 0xfff6dc, alpha: 1 },
  idle: { glyphs: 'z', fill: 0x8c8fa3, ink: 0xfff6dc, alpha: 0.8 },
};
