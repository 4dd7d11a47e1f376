/** Builds the backend for one configured source. */
import type { WorkSourceConfig } from './workSettings';
import { createGithubSource } from './githubSource';
import { createLinearSource } from './linearSource';
import { createMarkdownSource } from './markdownSource';
import type { NetworkDependencies, WorkSource } from './port';

/** The backend for `config`; network backends share the service's fetch, timeout and stop signal. */
export function createWorkSource(config: WorkSourceConfig, dependencies: NetworkDependencies): WorkSource {
  switch (config.kind) {
    case 'markdown':
      return createMarkdownSource(config);
    case 'github':
      return createGithubSource(config, dependencies);
    case 'linear':
      return createLinearSource(config, dependencies);
    default:
      return config satisfies never;
  }
}
