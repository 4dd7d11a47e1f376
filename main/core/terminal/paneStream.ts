/**
 * A live stream of one tmux pane through a read-only control-mode client (`tmux -C attach -r`): tmux itself pushes
 * `%output %<pane> <bytes>` lines as the pane writes, so nothing polls the screen. The screen at the start comes from
 * one `capture-pane -e`; output that arrives before it is already in it and is dropped.
 */
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { TmuxResult } from '../launch/tmux';
import type { Pane } from './adoption';

/** Where a stream's output and end go. */
export interface StreamHandlers {
  output(data: string): void;
  ended(reason: string): void;
}

/** A running stream. */
export interface PaneStream {
  cols: number;
  rows: number;
  /** The pane's screen when the stream started, as terminal text (colours kept, cursor placed). */
  screen: string;
  stop(): void;
}

/** Decodes one `%output` payload: tmux escapes bytes below 32 and the backslash as `\ooo`. */
export function decodeOutput(payload: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < payload.length; index += 1) {
    const code = payload.charCodeAt(index);
    if (code === 0x5c && /^[0-7]{3}$/.test(payload.slice(index + 1, index + 4))) {
      bytes.push(parseInt(payload.slice(index + 1, index + 4), 8));
      index += 3;
    } else bytes.push(code & 0xff);
  }
  return Buffer.from(bytes);
}

/** Splits a control-mode stdout chunk stream into lines (bytes kept as latin1, so every byte survives). */
function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  let rest = '';
  return (chunk) => {
    rest += chunk.toString('latin1');
    let newline = rest.indexOf('\n');
    while (newline >= 0) {
      onLine(rest.slice(0, newline).replace(/\r$/, ''));
      rest = rest.slice(newline + 1);
      newline = rest.indexOf('\n');
    }
  };
}

/** What starting a stream needs. */
export interface StreamStart {
  executable: string;
  socketArgs: string[];
  env: NodeJS.ProcessEnv;
  pane: Pane;
  run(args: string[]): Promise<TmuxResult>;
}

/** Attaches a control-mode client to the pane's session and streams the pane. */
export async function startPaneStream(start: StreamStart, handlers: StreamHandlers): Promise<{ ok: true; stream: PaneStream } | { ok: false; reason: string }> {
  const { pane } = start;
  const size = await start.run(['display-message', '-p', '-t', pane.paneId, '#{pane_width} #{pane_height} #{cursor_x} #{cursor_y}']);
  if (!size.ok) return { ok: false, reason: `tmux could not find ${pane.target}: ${size.reason}` };
  const [cols, rows, cursorX, cursorY] = size.stdout.trim().split(' ').map(Number);
  const child = spawn(start.executable, [...start.socketArgs, '-C', 'attach-session', '-r', '-t', pane.paneId], { env: start.env, stdio: ['pipe', 'pipe', 'ignore'] });
  const decoder = new StringDecoder('utf8');
  let live = false;
  let ended = false;
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    handlers.ended(reason);
  };
  let attached: () => void = () => {};
  const ready = new Promise<void>((resolve) => (attached = resolve));
  const prefix = `%output ${pane.paneId} `;
  child.stdout.on(
    'data',
    lineSplitter((line) => {
      if (line.startsWith('%session-changed') || line.startsWith('%end') || line.startsWith('%error')) attached();
      if (line.startsWith('%exit')) end('The pane or its session closed.');
      if (!live || !line.startsWith(prefix)) return;
      const text = decoder.write(decodeOutput(line.slice(prefix.length)));
      if (text !== '') handlers.output(text);
    }),
  );
  child.once('exit', () => end('The pane or its session closed.'));
  child.once('error', (error) => end(`tmux could not stream: ${error.message}`));
  await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, 3000))]);
  if (ended) return { ok: false, reason: `tmux could not stream ${pane.target}.` };
  const captured = await start.run(['capture-pane', '-p', '-e', '-t', pane.paneId]);
  live = true;
  const lines = captured.ok ? captured.stdout.replace(/\n$/, '').split('\n') : [];
  const screen = `${lines.join('\r\n')}\x1b[${(cursorY || 0) + 1};${(cursorX || 0) + 1}H`;
  return {
    ok: true,
    stream: {
      cols: cols || 80,
      rows: rows || 24,
      screen,
      stop() {
        ended = true;
        child.stdin.end();
        child.kill();
      },
    },
  };
}
