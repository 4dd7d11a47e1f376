/**
 * What the terminal panel's Type mode sends for what xterm.js reports typed: only named keys and single printable
 * characters (shared/terminal.ts rule 2); anything else (function keys, other control bytes) is dropped, never sent.
 */
import { isControlCharacter } from '../../shared/terminal';


/** Escape sequences and control bytes xterm.js reports, as the named keys tmux takes. */
const SEQUENCES: Record<string, string> = {
  '\r': 'Enter',
  '\x1b': 'Escape',
  '\t': 'Tab',
  '\x1b[A': 'Up',
  '\x1b[B': 'Down',
  '\x1b[C': 'Right',
  '\x1b[D': 'Left',
  '\x1bOA': 'Up',
  '\x1bOB': 'Down',
  '\x1bOC': 'Right',
  '\x1bOD': 'Left',
  ' ': 'Space',
  '\x7f': 'BSpace',
  '\b': 'BSpace',
  '\x03': 'C-c',
};

const ESCAPE = '\x1b';
/** What follows ESC in a sequence with no name: CSI parameters and a final byte, or SS3 and one character. */
const UNNAMED_SEQUENCE = /^(\[[0-9;?]*[ -/]*[@-~]|O.)/;

/** The keys for one chunk of typed input, in order; unknown sequences and control bytes are dropped. */
export function keysOfInput(data: string): string[] {
  if (SEQUENCES[data]) return [SEQUENCES[data]];
  const keys: string[] = [];
  for (let index = 0; index < data.length; ) {
    const three = data.slice(index, index + 3);
    if (SEQUENCES[three]) {
      keys.push(SEQUENCES[three]);
      index += 3;
      continue;
    }
    // An escape sequence with no name (a function key): skipped whole.
    const unnamed = data.startsWith(ESCAPE, index) ? UNNAMED_SEQUENCE.exec(data.slice(index + 1)) : null;
    if (unnamed) {
      index += 1 + unnamed[0].length;
      continue;
    }
    const char = String.fromCodePoint(data.codePointAt(index)!);
    index += char.length;
    if (SEQUENCES[char]) keys.push(SEQUENCES[char]);
    else if (!isControlCharacter(char)) keys.push(char);
  }
  return keys;
}
