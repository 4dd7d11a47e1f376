/**
 * GitHub backend (REST v3): the open issues of one repository, pull requests excluded, `status: …` labels
 * turned into the item's status. Pagination follows the Link header, bounded.
 */
import type { WorkItem } from '../../../shared/schemas';
import type { GithubSourceConfig } from './workSettings';
import { clockTime, exchange, hostOf, parseJsonAnswer, type HttpAnswer } from './http';
import { SourceFailure, type NetworkDependencies, type WorkSource } from './port';

/** Pages followed at most (100 issues each): a backlog beyond 1,000 open issues is cut, with a note. */
export const GITHUB_MAX_PAGES = 10;

/** A status label: "status: in review" gives the status "in review". */
const STATUS_LABEL = /^status:\s*(.*)$/i;

/** Builds the GitHub source for one repository. */
export function createGithubSource(config: GithubSourceConfig, dependencies: NetworkDependencies): WorkSource {
  const name = `GitHub ${config.repo}`;
  const base = config.apiUrl.replace(/\/+$/, '');
  return {
    name,
    async list() {
      const token = dependencies.env[config.tokenEnv]?.trim();
      const headers: Record<string, string> = {
        Accept: 'application/vnd.github+json',
        'User-Agent': 'pixelfleet',
      };
      if (token) headers.Authorization = `Bearer ${token}`;
      const items: WorkItem[] = [];
      const problems: string[] = [];
      let url: string | null = `${base}/repos/${config.repo}/issues?state=open&per_page=100`;
      for (let page = 0; url; page += 1) {
        if (page === GITHUB_MAX_PAGES) {
          problems.push(`GitHub: ${config.repo} has more than ${GITHUB_MAX_PAGES * 100} open issues; only the first ${GITHUB_MAX_PAGES * 100} are read.`);
          break;
        }
        const answer = await exchange({ service: 'GitHub', url, headers, ...dependencies });
        if (answer.status !== 200) throw describeGithubFailure(answer, config, hostOf(url), Boolean(token));
        items.push(...parseGithubIssues(parseJsonAnswer(answer, 'GitHub', url), config.repo));
        url = nextPageUrl(answer.headers.get('link'), base);
      }
      return { items, problems };
    },
  };
}

/** Turns one page of `GET /repos/{owner}/{repo}/issues` into work items; pull requests are skipped. */
export function parseGithubIssues(body: unknown, repo: string): WorkItem[] {
  if (!Array.isArray(body)) throw new SourceFailure(`GitHub: the answer for ${repo} is not a list of issues; check apiUrl.`);
  const items: WorkItem[] = [];
  for (const issue of body) {
    if (!isRecord(issue) || 'pull_request' in issue) continue;
    if (typeof issue.number !== 'number' || typeof issue.title !== 'string') continue;
    const labels: string[] = [];
    let status: string | null = null;
    for (const label of Array.isArray(issue.labels) ? issue.labels : []) {
      const labelName = typeof label === 'string' ? label : isRecord(label) && typeof label.name === 'string' ? label.name : null;
      if (!labelName) continue;
      const statusMatch = STATUS_LABEL.exec(labelName.trim());
      if (statusMatch) status ??= statusMatch[1].trim() || null;
      else labels.push(labelName);
    }
    items.push({
      source: 'github',
      id: `${repo}#${issue.number}`,
      title: issue.title,
      labels,
      status: status ?? 'open',
      url: typeof issue.html_url === 'string' ? issue.html_url : '',
    });
  }
  return items;
}

/**
 * The `rel="next"` URL of a Link header, or null. Only a URL on the configured API's origin is followed, so the
 * token is never sent to another host.
 */
export function nextPageUrl(linkHeader: string | null, apiBase: string): string | null {
  if (!linkHeader) return null;
  for (const part of linkHeader.split(',')) {
    const match = /<([^>]+)>\s*;(.*)$/.exec(part.trim());
    if (!match || !/\brel\s*=\s*"?([^"]*\s)?next(\s[^"]*)?"?/i.test(match[2])) continue;
    try {
      const next = new URL(match[1], apiBase);
      return next.origin === new URL(apiBase).origin ? next.href : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** The owner sentence for a non-200 answer; `authenticated` says whether a token was sent. */
export function describeGithubFailure(answer: HttpAnswer, config: GithubSourceConfig, host: string, authenticated: boolean): SourceFailure {
  const remaining = answer.headers.get('x-ratelimit-remaining');
  const retryAfterSeconds = Number(answer.headers.get('retry-after') ?? NaN);
  // Primary limits say remaining: 0; secondary limits answer 403 or 429 with retry-after.
  const rateLimited = answer.status === 429 || (answer.status === 403 && (remaining === '0' || retryAfterSeconds > 0));
  if (rateLimited) {
    const resetSeconds = Number(answer.headers.get('x-ratelimit-reset') ?? NaN);
    const retryAt =
      retryAfterSeconds > 0 ? Date.now() + retryAfterSeconds * 1000 : resetSeconds > 0 ? resetSeconds * 1000 : undefined;
    const hint = authenticated ? '' : ` (set ${config.tokenEnv} for a higher limit)`;
    return retryAt === undefined
      ? new SourceFailure(`GitHub: rate limited; try again later${hint}.`)
      : new SourceFailure(`GitHub: rate limited until ${clockTime(retryAt)}${hint}.`, retryAt);
  }
  switch (answer.status) {
    case 401:
      return new SourceFailure(`GitHub: 401 — check ${config.tokenEnv}.`);
    case 403:
      return new SourceFailure(`GitHub: 403 — access to ${config.repo} refused; check ${config.tokenEnv}'s permissions.`);
    case 404:
      return new SourceFailure(`GitHub: ${config.repo} not found on ${host}, or ${config.tokenEnv} has no access to it.`);
    default:
      return new SourceFailure(`GitHub: ${host} answered ${answer.status} for ${config.repo}; try again later.`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
