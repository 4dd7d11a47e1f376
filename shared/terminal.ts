/**
 * A persona's terminal across the contract (issue 39): where it is, what may be typed into it and which keys each
 * harness's own dialogs take. Pure rules and schemas; the adapter that owns tmux lives in main/core/terminal.
 *
 * 1. A send is one line of text: at most 4 KiB of UTF-8, no control characters (C0, DEL, C1); Enter follows it.
 * 2. Keys are named: Enter Escape Tab Up Down Left Right Space BSpace C-c, or one printable character.
 * 3. Approve, Deny and Interrupt press the keys the harness's own dialog takes (DIALOG_KEYS).
 * 4. Typed text is never stored: history records that a reply was sent (persona and time), never what.
 */
import { z } from 'zod';
import { boundedString, idString } from './bounds';
import type { Harness } from './schemas';

/** Most bytes (UTF-8) one send may type (rule 1). */
export const SEND_MAX_BYTES = 4096;
/** Lines a peek gives when none are asked for. */
export const PEEK_DEFAULT_LINES = 40;
/** Most lines a peek may ask for. */
export const PEEK_MAX_LINES = 2000;
/** Most keys one `keys` request may press. */
export const KEYS_MAX = 64;
/** Longest wait for acknowledgement a send may ask for, in milliseconds. */
export const SEND_WAIT_MAX_MS = 600_000;

/** The named keys (rule 2), as tmux names them. */
export const NAMED_KEYS = ['Enter', 'Escape', 'Tab', 'Up', 'Down', 'Left', 'Right', 'Space', 'BSpace', 'C-c'] as const;
/** A named key. */
export type NamedKey = (typeof NAMED_KEYS)[number];

/** True for a C0 control, DEL or a C1 control: refused in typed text (rule 1). */
export function isControlCharacter(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** The first control character of a text, or null. */
function firstControl(text: string): string | null {
  for (const char of text) if (isControlCharacter(char)) return char;
  return null;
}

/** True when `key` is a named key or one printable character (rule 2). */
export function isAllowedKey(key: string): boolean {
  if ((NAMED_KEYS as readonly string[]).includes(key)) return true;
  const chars = Array.from(key);
  return chars.length === 1 && !isControlCharacter(key) && key.trim() !== '';
}

/** Why a text may not be sent (rule 1), or null when it may. */
export function sendTextProblem(text: string): string | null {
  if (text.length === 0) return 'There is nothing to send.';
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > SEND_MAX_BYTES) return `A send is at most ${SEND_MAX_BYTES} bytes (this one is ${bytes}).`;
  const control = firstControl(text);
  if (control !== null) return `A send may not hold control characters (found U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}); press named keys with \`agents keys\`.`;
  return null;
}

/** What the owner asks of a dialog (rule 3). */
export const TerminalActionSchema = z.enum(['approve', 'deny', 'interrupt']);
/** An action on a harness's dialog. */
export type TerminalAction = z.infer<typeof TerminalActionSchema>;

/**
 * The keys each harness's own dialog takes (rule 3). Claude Code's permission dialog selects its numbered first
 * option "Yes" with `1` and cancels with Escape; Codex's approval takes `y` and Escape; OpenCode's permission prompt
 * allows once with Enter and rejects with Escape. All three interrupt a running turn with Escape; OpenCode asks for
 * it twice.
 */
export const DIALOG_KEYS: Record<Harness, Record<TerminalAction, string[]>> = {
  claude: { approve: ['1'], deny: ['Escape'], interrupt: ['Escape'] },
  codex: { approve: ['y'], deny: ['Escape'], interrupt: ['Escape'] },
  opencode: { approve: ['Enter'], deny: ['Escape'], interrupt: ['Escape', 'Escape'] },
};

/** Where a persona's terminal is: a tmux pane, launched by Pixelfleet or adopted. */
export const TerminalRefSchema = z.object({
  kind: z.literal('tmux'),
  /** `<session>:<window>.<pane>`. */
  target: z.string(),
  launched: z.boolean(),
});
/** A persona's terminal. */
export type TerminalRef = z.infer<typeof TerminalRefSchema>;

/** A persona's terminal, or why it has none (`uncertain`: panes that cannot be told apart). */
export const TerminalLocationSchema = z.object({
  personaId: z.string(),
  terminal: TerminalRefSchema.nullable(),
  reason: z.string().nullable(),
  uncertain: z.boolean(),
});
/** The answer of `terminal.locate`. */
export type TerminalLocation = z.infer<typeof TerminalLocationSchema>;

const personaId = idString();

/** The contract's terminal channels (merged into shared/contract.ts). */
export const terminalChannels = {
  /** Where a persona's terminal is (null with the reason when it has none). */
  'terminal.locate': {
    request: z.object({ personaId }).strict(),
    response: TerminalLocationSchema,
  },
  /** The last lines of a persona's terminal as plain text. */
  'terminal.peek': {
    request: z.object({ personaId, lines: z.number().int().min(1).max(PEEK_MAX_LINES).optional() }).strict(),
    response: z.object({ persona: z.string(), target: z.string(), lines: z.array(z.string()) }),
  },
  /** Types one line and presses Enter; with `waitMs`, waits until the harness's records show the input. */
  'terminal.send': {
    request: z
      .object({ personaId, text: boundedString('a reply', SEND_MAX_BYTES, 1), waitMs: z.number().int().min(0).max(SEND_WAIT_MAX_MS).optional() })
      .strict(),
    response: z.object({ delivered: z.literal(true), acknowledged: z.boolean() }),
  },
  /** Presses named keys (rule 2), all or none. */
  'terminal.keys': {
    request: z.object({ personaId, keys: z.array(boundedString('a key', 8, 1)).min(1).max(KEYS_MAX) }).strict(),
    response: z.object({ delivered: z.literal(true) }),
  },
  /** Approve, deny or interrupt through the harness's own keys (rule 3). */
  'terminal.act': {
    request: z.object({ personaId, action: TerminalActionSchema }).strict(),
    response: z.object({ delivered: z.literal(true), keys: z.array(z.string()) }),
  },
  /** Starts (or, with its `streamId`, renews) a live stream of the pane: its screen now, then `terminal.output`. */
  'terminal.watch': {
    request: z.object({ personaId, streamId: idString().optional() }).strict(),
    response: z.object({ streamId: z.string(), target: z.string(), cols: z.number().int(), rows: z.number().int(), screen: z.string() }),
  },
  /** Ends a stream. */
  'terminal.unwatch': {
    request: z.object({ streamId: idString() }).strict(),
    response: z.object({ ended: z.boolean() }),
  },
} as const;

/** The contract's terminal events (merged into shared/contract.ts). */
export const terminalEvents = {
  /** Bytes the pane wrote, as text, in order (`seq` counts from 1 per stream). */
  'terminal.output': z.object({ streamId: z.string(), personaId: z.string(), seq: z.number().int(), data: z.string() }),
  /** A stream ended (the pane closed, the lease ran out, or it was unwatched). */
  'terminal.ended': z.object({ streamId: z.string(), personaId: z.string(), reason: z.string() }),
  /** A reply was sent to a persona (never its text): the page shows "sent" until the harness's records show it. */
  'terminal.sent': z.object({ personaId: z.string(), at: z.string() }),
} as const;
