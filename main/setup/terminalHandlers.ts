/** The contract's terminal channels (issue 39), bound to the terminal service; app.ts spreads them into its handlers. */
import type { Handlers } from '../edges/transport/router';
import type { TerminalService } from '../core/terminal/TerminalService';

/** The handlers of `terminal.*`. */
export function terminalHandlers(terminals: TerminalService): Pick<Handlers, 'terminal.locate' | 'terminal.peek' | 'terminal.send' | 'terminal.keys' | 'terminal.act' | 'terminal.watch' | 'terminal.unwatch'> {
  return {
    'terminal.locate': (request) => terminals.locate(request.personaId),
    'terminal.peek': (request) => terminals.peek(request.personaId, request.lines),
    'terminal.send': (request) => terminals.send(request.personaId, request.text, request.waitMs),
    'terminal.keys': (request) => terminals.keys(request.personaId, request.keys),
    'terminal.act': (request) => terminals.act(request.personaId, request.action),
    'terminal.watch': (request) => terminals.watch(request.personaId, request.streamId),
    'terminal.unwatch': (request) => terminals.unwatch(request.streamId),
  };
}
