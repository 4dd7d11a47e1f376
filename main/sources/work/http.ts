/**
 * One bounded HTTP exchange for the network backends: a timeout covering the whole answer, a size cap on the
 * body, and failures turned into owner sentences ("GitHub: no answer from api.github.com in 10 s").
 */
import { clockMinutesText } from '../../../shared/usagePhrases';
import { SourceFailure } from './port';

/** Largest answer body read from a tracker; a page of 100 issues is far below this. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** One request: `service` names the tracker in sentences ("GitHub", "Linear"). */
export interface HttpExchange {
  service: string;
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The answer with its body read as text. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Redirects followed at most within the API's origin. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Sends the request and reads the body; throws SourceFailure on timeout, network error, an oversized body, or a
 * redirect to another origin. Redirects are followed here, not by fetch, and only within the request's origin, so
 * the token is never sent elsewhere (and a tracker answer never silently comes from another host).
 */
export async function exchange(request: HttpExchange): Promise<HttpAnswer> {
  const origin = new URL(request.url).origin;
  let url = request.url;
  let method = request.method ?? 'GET';
  let body = request.body;
  for (let hop = 0; ; hop += 1) {
    const answer = await exchangeOnce({ ...request, url, method, body });
    const location = REDIRECT_STATUSES.has(answer.status) ? answer.headers.get('location') : null;
    if (location === null) return answer;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new SourceFailure(`${request.service}: ${hostOf(url)} redirected to an address that is not a URL; check apiUrl.`);
    }
    if (next.origin !== origin) {
      throw new SourceFailure(
        `${request.service}: ${hostOf(url)} redirected to ${next.protocol}//${next.host}, another origin; it is not followed with the token. Check apiUrl.`,
      );
    }
    if (hop === MAX_REDIRECTS) throw new SourceFailure(`${request.service}: ${hostOf(url)} redirected more than ${MAX_REDIRECTS} times; check apiUrl.`);
    // As fetch does: 303 (and 301/302 after a POST) turn into a GET without a body; 307 and 308 repeat the request.
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = next.href;
  }
}

/** One request without following redirects. */
async function exchangeOnce(request: HttpExchange): Promise<HttpAnswer> {
  const host = hostOf(request.url);
  const controller = new AbortController();
  const timedOut = new Error('timeout');
  const timer = setTimeout(() => controller.abort(timedOut), request.timeoutMs);
  const stop = () => controller.abort(request.signal?.reason);
  request.signal?.addEventListener('abort', stop, { once: true });
  try {
    const response = await request.fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
      redirect: 'manual',
    });
    const text = await readBounded(response, MAX_ANSWER_BYTES, `${request.service}: the answer from ${host} is larger than 8 MiB`);
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (error instanceof SourceFailure) throw error;
    if (controller.signal.aborted && controller.signal.reason === timedOut) {
      throw new SourceFailure(`${request.service}: no answer from ${host} in ${formatSeconds(request.timeoutMs)} s.`);
    }
    if (request.signal?.aborted) throw new SourceFailure(`${request.service}: stopped.`);
    const code = causeCode(error);
    throw new SourceFailure(`${request.service}: cannot reach ${host}${code ? ` (${code})` : ''}; check the network or apiUrl.`);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', stop);
  }
}

/** Parses a JSON answer body, or fails with a sentence naming the host. */
export function parseJsonAnswer(answer: HttpAnswer, service: string, url: string): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new SourceFailure(`${service}: ${hostOf(url)} answered ${answer.status} with something that is not JSON; check apiUrl.`);
  }
}

/** "HH:MM" in local time, for rate-limit resets. */
export function clockTime(epochMs: number): string {
  return clockMinutesText(epochMs);
}

/** The host (with port) of a URL, for sentences; never the path or query. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

async function readBounded(response: Response, maxBytes: number, tooLarge: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new SourceFailure(`${tooLarge}.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function formatSeconds(milliseconds: number): string {
  return String(Number((milliseconds / 1000).toFixed(1)));
}

function causeCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}
