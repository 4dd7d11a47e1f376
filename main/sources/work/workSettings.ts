/**
 * The `workSources` entries of settings.json: where station backlogs come from. Kept beside the sources that read
 * them; the settings file's schema (main/setup/settings) takes them from here.
 */
import { z } from 'zod';

/** An environment variable name; tokens are only ever read from the environment, never from this file. */
const EnvironmentNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

/** True for a host name that can only mean this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * A tracker endpoint that receives the token: https:// to any host, http:// only to a loopback host (tests, local
 * mirrors), where the token never crosses the network in clear.
 */
const HttpUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .refine((value) => value.startsWith('https:') || isLoopbackHost(new URL(value).hostname), {
    error: 'must be https:// (http:// only to 127.0.0.1, ::1 or localhost: the token would travel in clear)',
  });

/** A folder of Markdown files with YAML front matter. */
export const MarkdownSourceSchema = z.object({
  kind: z.literal('markdown'),
  dir: z.string().trim().min(1, 'must name a folder'),
});

/** Open issues of one GitHub repository (REST v3); `apiUrl` also serves GitHub Enterprise. */
export const GithubSourceSchema = z.object({
  kind: z.literal('github'),
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must look like "owner/name"'),
  apiUrl: HttpUrlSchema.default('https://api.github.com'),
  tokenEnv: EnvironmentNameSchema.default('GITHUB_TOKEN'),
});

/** Open issues of one Linear team (GraphQL). */
export const LinearSourceSchema = z.object({
  kind: z.literal('linear'),
  teamKey: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be a team key such as "ENG"'),
  apiUrl: HttpUrlSchema.default('https://api.linear.app/graphql'),
  tokenEnv: EnvironmentNameSchema.default('LINEAR_API_KEY'),
});

/** One configured work-item source. */
export const WorkSourceSchema = z.discriminatedUnion('kind', [MarkdownSourceSchema, GithubSourceSchema, LinearSourceSchema]);
export type WorkSourceConfig = z.infer<typeof WorkSourceSchema>;
export type MarkdownSourceConfig = z.infer<typeof MarkdownSourceSchema>;
export type GithubSourceConfig = z.infer<typeof GithubSourceSchema>;
export type LinearSourceConfig = z.infer<typeof LinearSourceSchema>;
