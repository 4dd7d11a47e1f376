/**
 * Linear backend (GraphQL): the open issues of one team (state type neither completed nor canceled) with their
 * label names. Personal API keys are sent raw in Authorization, as Linear expects. Pagination is bounded.
 */
import type { WorkItem } from '../../../shared/schemas';
import type { LinearSourceConfig } from './workSettings';
import { clockTime, exchange, hostOf, type HttpAnswer } from './http';
import { SourceFailure, type NetworkDependencies, type WorkSource } from './port';

/** Pages followed at most (100 issues each). */
export const LINEAR_MAX_PAGES = 10;

/** The query for one page of a team's open issues. */
export const LINEAR_ISSUES_QUERY = `query PixelfleetTeamIssues($teamKey: String!, $after: String) {
  issues(
    first: 100
    after: $after
    filter: { team: { key: { eq: $teamKey } }, state: { type: { nin: ["completed", "canceled"] } } }
  ) {
    nodes { identifier title url state { name } labels(first: 50) { nodes { name } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** One page of issues, normalised. */
export interface LinearPage {
  items: WorkItem[];
  hasNextPage: boolean;
  endCursor: string | null;
}

/** Builds the Linear source for one team. */
export function createLinearSource(config: LinearSourceConfig, dependencies: NetworkDependencies): WorkSource {
  return {
    name: `Linear ${config.teamKey}`,
    async list() {
      const token = dependencies.env[config.tokenEnv]?.trim();
      if (!token) throw new SourceFailure(`Linear: set ${config.tokenEnv} to read team ${config.teamKey}.`);
      const headers = { Authorization: token, 'Content-Type': 'application/json', 'User-Agent': 'pixelfleet' };
      const items: WorkItem[] = [];
      const problems: string[] = [];
      let after: string | null = null;
      for (let page = 0; ; page += 1) {
        if (page === LINEAR_MAX_PAGES) {
          problems.push(`Linear: team ${config.teamKey} has more than ${LINEAR_MAX_PAGES * 100} open issues; only the first ${LINEAR_MAX_PAGES * 100} are read.`);
          break;
        }
        const body = JSON.stringify({ query: LINEAR_ISSUES_QUERY, variables: { teamKey: config.teamKey, after } });
        const answer = await exchange({ service: 'Linear', url: config.apiUrl, method: 'POST', headers, body, ...dependencies });
        const json = answer.status === 200 || answer.status === 400 ? parseJsonAnswerLeniently(answer) : undefined;
        const failure = describeLinearFailure(answer, json, config);
        if (failure) throw failure;
        const parsed = parseLinearPage(json, config.teamKey);
        items.push(...parsed.items);
        if (!parsed.hasNextPage || !parsed.endCursor || parsed.endCursor === after) break;
        after = parsed.endCursor;
      }
      return { items, problems };
    },
  };
}

/** Turns a successful GraphQL answer into work items and the page info. */
export function parseLinearPage(body: unknown, teamKey: string): LinearPage {
  const issues = field(field(body, 'data'), 'issues');
  const nodes = field(issues, 'nodes');
  if (!Array.isArray(nodes)) throw new SourceFailure(`Linear: the answer for team ${teamKey} has no issue list; check apiUrl.`);
  const items: WorkItem[] = [];
  for (const node of nodes) {
    const identifier = field(node, 'identifier');
    const title = field(node, 'title');
    if (typeof identifier !== 'string' || typeof title !== 'string') continue;
    const labelNodes = field(field(node, 'labels'), 'nodes');
    const labels = (Array.isArray(labelNodes) ? labelNodes : [])
      .map((label) => field(label, 'name'))
      .filter((name): name is string => typeof name === 'string' && name.trim() !== '');
    const state = field(field(node, 'state'), 'name');
    const url = field(node, 'url');
    items.push({
      source: 'linear',
      id: identifier,
      title,
      labels,
      status: typeof state === 'string' ? state : null,
      url: typeof url === 'string' ? url : '',
    });
  }
  const pageInfo = field(issues, 'pageInfo');
  const endCursor = field(pageInfo, 'endCursor');
  return { items, hasNextPage: field(pageInfo, 'hasNextPage') === true, endCursor: typeof endCursor === 'string' ? endCursor : null };
}

/** The owner sentence for a failed answer (HTTP status or GraphQL `errors`), or null when the answer is usable. */
export function describeLinearFailure(answer: HttpAnswer, json: unknown, config: LinearSourceConfig): SourceFailure | null {
  const errors = field(json, 'errors');
  const list = Array.isArray(errors) ? errors : [];
  const codes = list.map((error) => String(field(field(error, 'extensions'), 'code') ?? '').toUpperCase());
  const types = list.map((error) => String(field(field(error, 'extensions'), 'type') ?? '').toLowerCase());
  if (answer.status === 429 || codes.includes('RATELIMITED')) {
    const retryAt = linearRetryAt(answer);
    return retryAt === undefined
      ? new SourceFailure('Linear: rate limited; try again later.')
      : new SourceFailure(`Linear: rate limited until ${clockTime(retryAt)}.`, retryAt);
  }
  if (answer.status === 401 || codes.includes('AUTHENTICATION_ERROR') || types.includes('authentication error')) {
    return new SourceFailure(`Linear: 401 — check ${config.tokenEnv}.`);
  }
  if (list.length > 0) {
    const message = field(list[0], 'message');
    const detail = typeof message === 'string' ? message.slice(0, 200) : 'an error without a message';
    return new SourceFailure(`Linear: the query for team ${config.teamKey} failed: ${detail}`);
  }
  if (answer.status !== 200) {
    return new SourceFailure(`Linear: ${hostOf(config.apiUrl)} answered ${answer.status} for team ${config.teamKey}; try again later.`);
  }
  if (json === undefined) {
    return new SourceFailure(`Linear: ${hostOf(config.apiUrl)} answered with something that is not JSON; check apiUrl.`);
  }
  return null;
}

/** When Linear's limit resets: its own header (epoch milliseconds), else Retry-After (seconds). */
function linearRetryAt(answer: HttpAnswer): number | undefined {
  const reset = Number(answer.headers.get('x-ratelimit-requests-reset') ?? NaN);
  if (reset > 0) return reset;
  const retryAfter = Number(answer.headers.get('retry-after') ?? NaN);
  return retryAfter > 0 ? Date.now() + retryAfter * 1000 : undefined;
}

/** Linear answers GraphQL errors with 400; a body that is not JSON is judged by its status alone. */
function parseJsonAnswerLeniently(answer: HttpAnswer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}
