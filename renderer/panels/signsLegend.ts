/**
 * The signs of the world, for the "Keys and signs" panel: what each mark on the floor means (badges, bubbles, team
 * pennants, the drift tag, the context bar, greyed characters, host tags, board counts). Each sign is drawn in CSS in
 * the world's colours beside its meaning; the words are the meaning, so a reader without the picture loses nothing.
 */
import { ALARM_PERCENT, WARNING_PERCENT } from '../world/contextBar';
import { element } from './dom';

/** One sign: a small swatch (class and text) and what it means. */
interface Sign {
  swatch: string;
  text: string;
  meaning: string;
}

/** The world's signs, in the order an owner meets them. */
export const WORLD_SIGNS: readonly Sign[] = [
  { swatch: 'sign-badge', text: '3', meaning: 'subagents running now (click for the tray)' },
  { swatch: 'sign-badge sign-unknown', text: '?', meaning: 'subagents unknown (the seat cannot be read), never 0' },
  { swatch: 'sign-bubble', text: '?', meaning: 'a question or a plan waits for you' },
  { swatch: 'sign-bubble sign-approval', text: '!', meaning: 'an approval waits for you (dimmed "!?": inferred)' },
  { swatch: 'sign-bubble', text: '…', meaning: 'finished its turn' },
  { swatch: 'sign-bubble sign-interrupted', text: 'x', meaning: 'interrupted' },
  { swatch: 'sign-bubble sign-error', text: '!', meaning: 'stopped on an error' },
  { swatch: 'sign-bubble sign-idle', text: 'z', meaning: 'idle' },
  { swatch: 'sign-flag sign-lead', text: '▶', meaning: 'leads an agent team' },
  { swatch: 'sign-flag', text: '▶', meaning: 'member of an agent team' },
  { swatch: 'sign-drift', text: '!', meaning: 'drift: its harness writes record kinds Pixelfleet does not know yet (pixelfleet doctor)' },
  { swatch: 'sign-bar', text: '', meaning: `context in use: green, amber from ${WARNING_PERCENT} %, red from ${ALARM_PERCENT} %; grey stripes when unknown` },
  { swatch: 'sign-host', text: 'box1', meaning: 'lives on another machine (its host); greyed while that host cannot be reached' },
  { swatch: 'sign-grey', text: 'AB', meaning: 'greyed character: its seat cannot be read (unknown)' },
  { swatch: 'sign-count', text: '?', meaning: 'on a board: backlog unknown ("!": it could not be read)' },
];

/** The signs as a definition list (for the Keys and signs panel). */
export function signsList(): HTMLElement {
  return element(
    'dl',
    { class: 'signs-list', 'data-signs-legend': true },
    ...WORLD_SIGNS.flatMap((sign) => [element('dt', {}, element('span', { class: `sign ${sign.swatch}`, 'aria-hidden': 'true' }, sign.text)), element('dd', {}, sign.meaning)]),
  );
}
