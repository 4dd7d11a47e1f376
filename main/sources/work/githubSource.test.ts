import { afterEach, describe, expect, it } from 'vitest';
import { GithubSourceSchema } from './workSettings';
import { clockTime } from './http';
import { createGithubSource, nextPageUrl, parseGithubIssues } from './githubSource';
import { SourceFailure } from './port';
import { startTrackerServer, type TrackerAnswer, type TrackerServer } from '../../dev/testing/trackerServer';

const TOKEN = 'ghp_secret-value-never-shown';
let server: TrackerServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function issue(number: number, title: string, labels: string[], extra: Record<string, unknown> = {}) {
  return {
    id: 1000 + number,
    number,
    title,
    state: 'open',
    html_url: `https://github.example/acme/app/issues/${number}`,
    labels: labels.map((name, index) => ({ id: index, name, color: 'ededed' })),
    ...extra,
  };
}

function source(apiUrl: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 5_000, tokenEnv?: string) {
  const config = GithubSourceSchema.parse({ kind: 'github', repo: 'acme/app', apiUrl, ...(tokenEnv ? { tokenEnv } : {}) });
  return createGithubSource(config, { env, fetch: globalThis.fetch, timeoutMs });
}

async function failureOf(promise: Promise<unknown>): Promise<SourceFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SourceFailure);
  return error as SourceFailure;
}

async function serve(handler: (url: string, base: string) => TrackerAnswer) {
  server = await startTrackerServer((request, base) => handler(request.url, base));
  return server;
}

describe('GitHub source', () => {
  it('does not follow a redirect to another origin: the other host gets no request and the token stays home', async () => {
    const elsewhere = await startTrackerServer(() => ({ status: 200, json: [issue(9, 'Planted', ['tester'])] }));
    try {
      // Another port is another origin, like another host.
      const elsewhereUrl = elsewhere.url.replace('127.0.0.1', 'localhost');
      const tracker = await serve((url) => ({ status: 302, headers: { location: `${elsewhereUrl}${url}` } }));
      const failure = await failureOf(source(tracker.url, { GITHUB_TOKEN: TOKEN }).list());
      expect(failure.message).toBe(
        `GitHub: ${new URL(tracker.url).host} redirected to http://${new URL(elsewhereUrl).host}, another origin; it is not followed with the token. Check apiUrl.`,
      );
      expect(elsewhere.requests).toHaveLength(0);
      expect(tracker.requests).toHaveLength(1);
    } finally {
      await elsewhere.close();
    }
  });

  it('follows a redirect within the API origin with the token (a renamed repository)', async () => {
    const tracker = await serve((url) =>
      url.startsWith('/repos/acme/app/')
        ? { status: 301, headers: { location: '/repositories/42/issues?state=open&per_page=100' } }
        : { status: 200, json: [issue(1, 'Moved', ['tester'])] },
    );
    const listing = await source(tracker.url, { GITHUB_TOKEN: TOKEN }).list();
    expect(listing.items.map((item) => item.title)).toEqual(['Moved']);
    expect(tracker.requests.map((request) => [request.url, request.headers.authorization])).toEqual([
      ['/repos/acme/app/issues?state=open&per_page=100', `Bearer ${TOKEN}`],
      ['/repositories/42/issues?state=open&per_page=100', `Bearer ${TOKEN}`],
    ]);
  });

  it('follows Link pagination, skips pull requests and turns status labels into the status', async () => {
    const tracker = await serve((url, base) => {
      if (url.startsWith('/repos/acme/app/issues?') && !url.includes('page=2')) {
        return {
          status: 200,
          headers: { link: `<${base}/repos/acme/app/issues?state=open&per_page=100&page=2>; rel="next", <${base}/repos/acme/app/issues?page=2>; rel="last"` },
          json: [
            issue(1, 'Fix the login form', ['tester', 'Status: In Review']),
            issue(2, 'Bump dependencies', ['ops'], { pull_request: { url: 'x' } }),
          ],
        };
      }
      if (url.includes('page=2')) return { status: 200, json: [issue(3, 'Write the sound cues', ['Sound Designer'])] };
      return { status: 404, json: { message: 'Not Found' } };
    });

    const listing = await source(tracker.url, { GITHUB_TOKEN: TOKEN }).list();

    expect(listing.problems).toEqual([]);
    expect(listing.items).toEqual([
      { source: 'github', id: 'acme/app#1', title: 'Fix the login form', labels: ['tester'], status: 'In Review', url: 'https://github.example/acme/app/issues/1' },
      { source: 'github', id: 'acme/app#3', title: 'Write the sound cues', labels: ['Sound Designer'], status: 'open', url: 'https://github.example/acme/app/issues/3' },
    ]);
    expect(tracker.requests).toHaveLength(2);
    const first = new URL(tracker.requests[0].url, tracker.url);
    expect(first.searchParams.get('state')).toBe('open');
    expect(first.searchParams.get('per_page')).toBe('100');
    expect(tracker.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(tracker.requests[0].headers.accept).toBe('application/vnd.github+json');
    expect(tracker.requests[0].headers['user-agent']).toBe('pixelfleet');
  });

  it('works without a token and sends no Authorization header', async () => {
    const tracker = await serve(() => ({ status: 200, json: [issue(7, 'Tidy', ['writer'])] }));
    const listing = await source(tracker.url, {}).list();
    expect(listing.items.map((item) => item.id)).toEqual(['acme/app#7']);
    expect(tracker.requests[0].headers.authorization).toBeUndefined();
  });

  it('stops after ten pages and says so', async () => {
    let page = 0;
    const tracker = await serve((_url, base) => {
      page += 1;
      return { status: 200, headers: { link: `<${base}/repos/acme/app/issues?page=${page + 1}>; rel="next"` }, json: [issue(page, `Issue ${page}`, ['x'])] };
    });
    const listing = await source(tracker.url).list();
    expect(tracker.requests).toHaveLength(10);
    expect(listing.items).toHaveLength(10);
    expect(listing.problems[0]).toMatch(/more than 1000 open issues/);
  });

  it('answers a 401 with the configured token variable, never the token', async () => {
    const tracker = await serve(() => ({ status: 401, json: { message: 'Bad credentials' } }));
    const failure = await failureOf(source(tracker.url, { WORK_GITHUB: TOKEN }, 5_000, 'WORK_GITHUB').list());
    expect(failure.message).toBe('GitHub: 401 — check WORK_GITHUB.');
    expect(failure.message).not.toContain(TOKEN);
  });

  it('reports a primary rate limit (403, remaining 0) with the reset time', async () => {
    const reset = Math.floor(Date.now() / 1000) + 1800;
    const tracker = await serve(() => ({
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      json: { message: 'API rate limit exceeded' },
    }));
    const failure = await failureOf(source(tracker.url).list());
    const expected = new Date(reset * 1000);
    const clock = `${String(expected.getHours()).padStart(2, '0')}:${String(expected.getMinutes()).padStart(2, '0')}`;
    expect(failure.message).toBe(`GitHub: rate limited until ${clock} (set GITHUB_TOKEN for a higher limit).`);
    expect(failure.retryAt).toBe(reset * 1000);
  });

  it('reports a 429 as a rate limit, using Retry-After', async () => {
    const tracker = await serve(() => ({ status: 429, headers: { 'retry-after': '120' }, json: { message: 'secondary rate limit' } }));
    const before = Date.now();
    const failure = await failureOf(source(tracker.url, { GITHUB_TOKEN: TOKEN }).list());
    expect(failure.message).toMatch(/^GitHub: rate limited until \d\d:\d\d\.$/);
    expect(failure.retryAt).toBeGreaterThanOrEqual(before + 120_000);
    expect(failure.message).toBe(`GitHub: rate limited until ${clockTime(failure.retryAt ?? 0)}.`);
  });

  it('tells a plain 403 from a rate limit, and names a missing repository', async () => {
    let status = 403;
    const tracker = await serve(() => ({ status, json: { message: 'nope' } }));
    expect((await failureOf(source(tracker.url).list())).message).toBe("GitHub: 403 — access to acme/app refused; check GITHUB_TOKEN's permissions.");
    status = 404;
    expect((await failureOf(source(tracker.url).list())).message).toBe(
      `GitHub: acme/app not found on ${new URL(tracker.url).host}, or GITHUB_TOKEN has no access to it.`,
    );
  });

  it('gives up on a server that never answers', async () => {
    const tracker = await serve(() => 'hang');
    const failure = await failureOf(source(tracker.url, {}, 200).list());
    expect(failure.message).toBe(`GitHub: no answer from ${new URL(tracker.url).host} in 0.2 s.`);
  });

  it('names an unreachable host', async () => {
    const tracker = await serve(() => ({ status: 200, json: [] }));
    const url = tracker.url;
    await tracker.close();
    server = undefined;
    const failure = await failureOf(source(url).list());
    expect(failure.message).toMatch(new RegExp(`^GitHub: cannot reach ${new URL(url).host.replace('.', '\\.')} \\(ECONNREFUSED\\)`));
  });

  it('reports an answer that is not a list of issues', async () => {
    const tracker = await serve(() => ({ status: 200, json: { message: 'this is an object' } }));
    expect((await failureOf(source(tracker.url).list())).message).toMatch(/not a list of issues/);
  });
});

describe('GitHub parsing', () => {
  it('keeps only the next link on the API origin', () => {
    const base = 'https://api.github.com';
    expect(nextPageUrl('<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=9>; rel="last"', base)).toBe(
      'https://api.github.com/x?page=2',
    );
    expect(nextPageUrl('<https://api.github.com/x?page=1>; rel="prev"', base)).toBeNull();
    expect(nextPageUrl('<https://elsewhere.example/x?page=2>; rel="next"', base)).toBeNull();
    expect(nextPageUrl(null, base)).toBeNull();
  });

  it('skips malformed entries and accepts string labels', () => {
    const items = parseGithubIssues([{ title: 'no number' }, null, { number: 5, title: 'ok', labels: ['Tester', { name: 'status:blocked' }] }], 'a/b');
    expect(items).toEqual([{ source: 'github', id: 'a/b#5', title: 'ok', labels: ['Tester'], status: 'blocked', url: '' }]);
  });
});
