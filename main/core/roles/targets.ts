/**
 * Pure rendering of a role profile into each harness's own agent definition, and where that file goes. Field names,
 * folders and the versions they were checked against are documented in FORMATS.md beside this file.
 *
 * Rule T1: the agent's name is the role's slug: lowercase ASCII letters, digits and hyphens (a role with no ASCII
 *          letter or digit gets `role-<8 hex of its key>`).
 * Rule T2: tools the profile leaves the role are written only when the profile restricts them; otherwise the
 *          harness's own defaults apply.
 * Rule T3: a model is written only for the harness the profile names one for.
 * Rule T4: every file carries the Pixelfleet marker (see marker.ts).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { roleKey } from '../../../shared/roles';
import { NEUTRAL_TOOLS, effectiveTools, type NeutralTool, type RoleProfile } from '../../../shared/roleProfile';
import { resolveHarnessHomes } from '../../sources/readers/homes';
import { withMarker } from './marker';
import { claudeToolNames, opencodePermissionKeys } from './tools';

/** The harnesses a profile exports to. */
export type ExportHarness = 'claude' | 'opencode' | 'codex';
/** Project scope writes under a project folder; user scope under the harness's user config folder. */
export type ExportScope = 'project' | 'user';

/** The agent name of a role in every harness (rule T1). */
export function agentSlug(role: string): string {
  const slug = roleKey(role)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length > 0) return slug.slice(0, 64).replace(/-+$/, '');
  return `role-${createHash('sha256').update(roleKey(role), 'utf8').digest('hex').slice(0, 8)}`;
}

/** The file an export writes: `<base>/<folder>/<slug>.<ext>` per harness and scope. */
export function exportPath(harness: ExportHarness, scope: ExportScope, role: string, projectDir: string, env: NodeJS.ProcessEnv): string {
  const slug = agentSlug(role);
  const homes = resolveHarnessHomes(env);
  switch (harness) {
    case 'claude':
      return scope === 'project' ? path.join(projectDir, '.claude', 'agents', `${slug}.md`) : path.join(homes.claude, 'agents', `${slug}.md`);
    case 'opencode': {
      const userFolder = path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || '', '.config'), 'opencode');
      return path.join(scope === 'project' ? path.join(projectDir, '.opencode') : userFolder, 'agents', `${slug}.md`);
    }
    case 'codex':
      return scope === 'project' ? path.join(projectDir, '.codex', 'agents', `${slug}.toml`) : path.join(homes.codex, 'agents', `${slug}.toml`);
    default:
      return harness satisfies never;
  }
}

function restricted(profile: RoleProfile): { kept: NeutralTool[]; dropped: NeutralTool[] } {
  const kept = effectiveTools(profile);
  return { kept, dropped: NEUTRAL_TOOLS.filter((tool) => !kept.includes(tool)) };
}

function markdownFile(role: string, fields: Record<string, unknown>, charter: string): string {
  const text = `---\n${stringifyYaml(fields, { lineWidth: 0 })}---\n\n${charter.trim()}\n`;
  return withMarker(roleKey(role), text, '---\n'.length);
}

/** `.claude/agents/<slug>.md`: front matter `name`, `description`, `tools` or `disallowedTools`, `model`; body = charter. */
export function renderClaude(role: string, profile: RoleProfile): string {
  const fields: Record<string, unknown> = { name: agentSlug(role), description: profile.description };
  const { kept, dropped } = restricted(profile);
  if (profile.tools.allow !== undefined) fields.tools = claudeToolNames(kept).join(', ');
  else if (dropped.length > 0) fields.disallowedTools = claudeToolNames(dropped).join(', ');
  if (profile.models.claude) fields.model = profile.models.claude;
  return markdownFile(role, fields, profile.charter);
}

/** `.opencode/agents/<slug>.md`: `description`, `mode: subagent`, `model`, `color`, `permission` denials; body = charter. */
export function renderOpencode(role: string, profile: RoleProfile): string {
  const fields: Record<string, unknown> = { description: profile.description, mode: 'subagent' };
  if (profile.models.opencode) fields.model = profile.models.opencode;
  if (profile.colour) fields.color = profile.colour.toLowerCase();
  const { dropped } = restricted(profile);
  if (dropped.length > 0) fields.permission = Object.fromEntries(opencodePermissionKeys(dropped).map((key) => [key, 'deny']));
  return markdownFile(role, fields, profile.charter);
}

/** A TOML basic string (JSON's escapes are TOML's; DEL and lone surrogates are escaped or dropped). */
export function tomlString(value: string): string {
  const clean = value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  return JSON.stringify(clean).replace(/\u007f/g, '\\u007f');
}

/** `agents/<slug>.toml`: `name`, `description`, `developer_instructions` (the charter), `model`, `sandbox_mode`. */
export function renderCodex(role: string, profile: RoleProfile): string {
  const lines = [
    `name = ${tomlString(agentSlug(role))}`,
    `description = ${tomlString(profile.description)}`,
    `developer_instructions = ${tomlString(profile.charter.trim() || profile.description)}`,
  ];
  if (profile.models.codex) lines.push(`model = ${tomlString(profile.models.codex)}`);
  // Codex has no per-tool switch for a role; a role that may not edit runs in the read-only sandbox.
  if (!effectiveTools(profile).includes('edit')) lines.push(`sandbox_mode = ${tomlString('read-only')}`);
  return withMarker(roleKey(role), `${lines.join('\n')}\n`, 0);
}

/** The file text for one harness. */
export function renderAgent(harness: ExportHarness, role: string, profile: RoleProfile): string {
  switch (harness) {
    case 'claude':
      return renderClaude(role, profile);
    case 'opencode':
      return renderOpencode(role, profile);
    case 'codex':
      return renderCodex(role, profile);
    default:
      return harness satisfies never;
  }
}
