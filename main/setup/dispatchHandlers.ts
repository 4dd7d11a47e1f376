/** The contract's dispatch channels (issue 40), bound to the dispatch service; app.ts spreads them into its handlers. */
import type { Handlers } from '../edges/transport/router';
import type { DispatchService } from '../core/dispatch/DispatchService';

/** The handlers of `work.dispatch*`, `work.undispatch` and `work.done`. */
export function dispatchHandlers(dispatch: DispatchService): Pick<Handlers, 'work.dispatch' | 'work.dispatchPrompt' | 'work.dispatches' | 'work.undispatch' | 'work.done'> {
  return {
    'work.dispatch': (request) => dispatch.dispatch(request),
    'work.dispatchPrompt': async (request) => ({ prompt: await dispatch.prompt(request.itemId, request.source) }),
    'work.dispatches': async () => ({ dispatches: await dispatch.views() }),
    'work.undispatch': async (request) => ({ cleared: await dispatch.undispatch(request.itemId, request.source) }),
    'work.done': (request) => dispatch.done(request.itemId, request.source, request.removeWorktree === true),
  };
}
