/** The contract's dispatch channels (issue 40), bound to the dispatch service; app.ts spreads them into its handlers. */
import type { Handlers } from '../edges/transport/router';
import type { DispatchService } from '../core/dispatch/DispatchService';
import { ServiceError } from '../kit/errors';
import type { Answer } from '../../shared/contract';
import type { DispatchHereResult } from '../../shared/dispatch';

/** A dispatch carried out through the router: its value, or its refusal thrown again with the same code and words. */
export async function answerOrThrow(answer: Promise<Answer<unknown>>): Promise<DispatchHereResult> {
  const settled = await answer;
  if (!settled.ok) throw new ServiceError(settled.error.code as ServiceError['code'], settled.error.message);
  return settled.value as DispatchHereResult;
}

/** The handlers of `work.dispatch*`, `work.undispatch` and `work.done`. */
export function dispatchHandlers(dispatch: DispatchService): Pick<Handlers, 'work.dispatch' | 'work.dispatchHere' | 'work.dispatchPrompt' | 'work.dispatches' | 'work.undispatch' | 'work.done'> {
  return {
    'work.dispatch': (request) => dispatch.dispatch(request),
    'work.dispatchHere': async (request) => {
      if (request.host !== undefined) throw new ServiceError('not_found', `This end joins no remotes, so it cannot dispatch on ${request.host}.`);
      return dispatch.here(request);
    },
    'work.dispatchPrompt': async (request) => ({ prompt: await dispatch.prompt(request.itemId, request.source) }),
    'work.dispatches': async () => ({ dispatches: await dispatch.views() }),
    'work.undispatch': async (request) => ({ cleared: await dispatch.undispatch(request.itemId, request.source) }),
    'work.done': (request) => dispatch.done(request.itemId, request.source, request.removeWorktree === true),
  };
}
