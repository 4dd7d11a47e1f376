/**
 * How the harness-neutral tool names of a profile map onto each harness's own tools. Sources and versions are in
 * FORMATS.md beside this file.
 */
import type { NeutralTool } from '../../../shared/roleProfile';

/** Claude Code tool names per neutral tool (`tools` / `disallowedTools` in `.claude/agents/*.md`). */
export const CLAUDE_TOOLS: Readonly<Record<NeutralTool, readonly string[]>> = {
  read: ['Read'],
  search: ['Grep', 'Glob'],
  edit: ['Edit', 'Write', 'NotebookEdit'],
  shell: ['Bash'],
  web: ['WebFetch', 'WebSearch'],
  agents: ['Agent'],
};

/** OpenCode permission keys per neutral tool (`permission:` in an agent file). */
export const OPENCODE_PERMISSIONS: Readonly<Record<NeutralTool, readonly string[]>> = {
  read: ['read'],
  search: ['grep', 'glob', 'list'],
  edit: ['edit'],
  shell: ['bash'],
  web: ['webfetch', 'websearch'],
  agents: ['task'],
};

/** Claude Code tool names for a list of neutral tools, in a stable order without repeats. */
export function claudeToolNames(tools: readonly NeutralTool[]): string[] {
  return [...new Set(tools.flatMap((tool) => CLAUDE_TOOLS[tool]))];
}

/** OpenCode permission keys for a list of neutral tools, in a stable order without repeats. */
export function opencodePermissionKeys(tools: readonly NeutralTool[]): string[] {
  return [...new Set(tools.flatMap((tool) => OPENCODE_PERMISSIONS[tool]))];
}
