/**
 * The work-item port: every backend (Markdown folder, GitHub, Linear) lists its open items the same way.
 * Label filtering and caching live in WorkService, so a backend only fetches and normalises.
 */
import type { WorkItem } from '../../../shared/schemas';

/** What one listing of a source produced: its items, and sentences about parts it had to skip. */
export interface WorkListing {
  items: WorkItem[];
  /** Owner sentences for skipped parts (a Markdown file with malformed front matter); the rest still counts. */
  problems: string[];
}

/** One configured backend. `list` throws a SourceFailure (an owner sentence) when the whole source failed. */
export interface WorkSource {
  /** Who the items come from, for error lines: "GitHub owner/name", "Linear ENG", "Markdown /path". */
  readonly name: string;
  /** Every open item of the source, unfiltered; one call is one full fetch. */
  list(): Promise<WorkListing>;
}

/** A whole source failed; `message` is for the owner and never contains a token. */
export class SourceFailure extends Error {
  constructor(
    message: string,
    /** Epoch milliseconds before which asking again is pointless (a rate limit's reset), when known. */
    readonly retryAt?: number,
  ) {
    super(message);
    this.name = 'SourceFailure';
  }
}

/** What every network backend needs besides its own settings. */
export interface NetworkDependencies {
  env: NodeJS.ProcessEnv;
  fetch: typeof globalThis.fetch;
  /** Milliseconds one request may take, answer body included. */
  timeoutMs: number;
  /** Aborts requests in flight when the service is disposed. */
  signal?: AbortSignal;
}
