import { afterEach, describe, expect, it } from 'vitest';
import { LinearSourceSchema } from './workSettings';
import { clockTime } from './http';
import { createLinearSource, parseLinearPage } from './linearSource';
import { SourceFailure } from './port';
import { startTrackerServer, type RecordedRequest, type TrackerAnswer, type TrackerServer } from '../../dev/testing/trackerServer';

const KEY = 'lin_api_secret-never-shown';
let server: TrackerServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function node(identifier: string, title: string, labels: string[], state = 'Todo') {
  return { identifier, title, url: `https://linear.example/acme/issue/${identifier}`, state: { name: state }, labels: { nodes: labels.map((name) => ({ name })) } };
}

function page(nodes: unknown[], endCursor: string | null, hasNextPage: boolean) {
  return { data: { issues: { nodes, pageInfo: { hasNextPage, endCursor } } } };
}

function source(apiUrl: string, env: NodeJS.ProcessEnv = { LINEAR_API_KEY: KEY }, timeoutMs = 5_000) {
  const config = LinearSourceSchema.parse({ kind: 'linear', teamKey: 'ENG', apiUrl });
  return createLinearSource(config, { env, fetch: globalThis.fetch, timeoutMs });
}

async function serve(handler: (request: RecordedRequest) => TrackerAnswer) {
  server = await startTrackerServer((request) => handler(request));
  return server;
}

async function failureOf(promise: Promise<unknown>): Promise<SourceFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SourceFailure);
  return error as SourceFailure;
}

describe('Linear source', () => {
  it('posts the team query with the raw key and follows pageInfo', async () => {
    const tracker = await serve((request) => {
      const { variables } = JSON.parse(request.body) as { variables: { teamKey: string; after: string | null } };
      return variables.after === null
        ? { status: 200, json: page([node('ENG-1', 'Mix the theme', ['Sound Designer', 'audio'], 'In Progress')], 'cursor-1', true) }
        : { status: 200, json: page([node('ENG-2', 'Review copy', [])], 'cursor-2', false) };
    });

    const listing = await source(`${tracker.url}/graphql`).list();

    expect(listing.items).toEqual([
      { source: 'linear', id: 'ENG-1', title: 'Mix the theme', labels: ['Sound Designer', 'audio'], status: 'In Progress', url: 'https://linear.example/acme/issue/ENG-1' },
      { source: 'linear', id: 'ENG-2', title: 'Review copy', labels: [], status: 'Todo', url: 'https://linear.example/acme/issue/ENG-2' },
    ]);
    expect(tracker.requests).toHaveLength(2);
    const [first, second] = tracker.requests.map((request) => JSON.parse(request.body) as { query: string; variables: Record<string, unknown> });
    expect(tracker.requests[0].method).toBe('POST');
    expect(tracker.requests[0].url).toBe('/graphql');
    expect(tracker.requests[0].headers.authorization).toBe(KEY);
    expect(tracker.requests[0].headers['content-type']).toBe('application/json');
    expect(first.variables).toEqual({ teamKey: 'ENG', after: null });
    expect(second.variables).toEqual({ teamKey: 'ENG', after: 'cursor-1' });
    expect(first.query).toMatch(/team: \{ key: \{ eq: \$teamKey \} \}/);
    expect(first.query).toMatch(/nin: \["completed", "canceled"\]/);
  });

  it('asks for the key without sending a request when it is not set', async () => {
    const tracker = await serve(() => ({ status: 200, json: page([], null, false) }));
    const failure = await failureOf(source(tracker.url, {}).list());
    expect(failure.message).toBe('Linear: set LINEAR_API_KEY to read team ENG.');
    expect(tracker.requests).toHaveLength(0);
  });

  it('turns authentication errors (HTTP 401, or 400 with AUTHENTICATION_ERROR) into one sentence without the key', async () => {
    let status = 401;
    const tracker = await serve(() =>
      status === 401
        ? { status: 401, text: 'Unauthorized' }
        : { status: 400, json: { errors: [{ message: 'Authentication required, not authenticated', extensions: { code: 'AUTHENTICATION_ERROR', type: 'authentication error' } }] } },
    );
    const first = await failureOf(source(tracker.url).list());
    status = 400;
    const second = await failureOf(source(tracker.url).list());
    for (const failure of [first, second]) {
      expect(failure.message).toBe('Linear: 401 — check LINEAR_API_KEY.');
      expect(failure.message).not.toContain(KEY);
    }
  });

  it('reports a RATELIMITED error with its reset time, and a bare 429', async () => {
    const reset = Date.now() + 600_000;
    let limited = 'graphql';
    const tracker = await serve(() =>
      limited === 'graphql'
        ? { status: 400, headers: { 'x-ratelimit-requests-reset': String(reset) }, json: { errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATELIMITED' } }] } }
        : { status: 429, text: 'Too Many Requests' },
    );
    const first = await failureOf(source(tracker.url).list());
    expect(first.message).toBe(`Linear: rate limited until ${clockTime(reset)}.`);
    expect(first.retryAt).toBe(reset);
    limited = 'http';
    const second = await failureOf(source(tracker.url).list());
    expect(second.message).toBe('Linear: rate limited; try again later.');
  });

  it('passes on another GraphQL error as a sentence', async () => {
    const tracker = await serve(() => ({ status: 200, json: { data: null, errors: [{ message: 'Field "issues" argument "filter" is invalid' }] } }));
    const failure = await failureOf(source(tracker.url).list());
    expect(failure.message).toBe('Linear: the query for team ENG failed: Field "issues" argument "filter" is invalid');
  });

  it('gives up on a server that never answers', async () => {
    const tracker = await serve(() => 'hang');
    const failure = await failureOf(source(tracker.url, { LINEAR_API_KEY: KEY }, 200).list());
    expect(failure.message).toBe(`Linear: no answer from ${new URL(tracker.url).host} in 0.2 s.`);
  });

  it('stops at a repeated cursor instead of looping', async () => {
    const tracker = await serve(() => ({ status: 200, json: page([node('ENG-9', 'Loop', [])], 'same', true) }));
    const listing = await source(tracker.url).list();
    expect(tracker.requests).toHaveLength(2);
    expect(listing.items).toHaveLength(2);
  });

  it('rejects an answer without an issue list', () => {
    expect(() => parseLinearPage({ data: {} }, 'ENG')).toThrow(/has no issue list/);
  });
});
