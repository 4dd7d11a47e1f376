/**
 * A role profile: what a role is for, its charter, the tools it may use (harness-neutral names), a preferred model per
 * harness and a colour. Kept in the app home as `roles/<role key>.md`; exported into each harness's own agent
 * definition on the owner's command. Schemas only (zod); parsing the file and writing it live in main/roles.
 */
import { z } from 'zod';

/** Harness-neutral tool names; each harness maps them to its own (see main/core/roles/tools.ts). */
export const NEUTRAL_TOOLS = ['read', 'search', 'edit', 'shell', 'web', 'agents'] as const;
export const NeutralToolSchema = z.enum(NEUTRAL_TOOLS);
export type NeutralTool = z.infer<typeof NeutralToolSchema>;

/** The longest description, in characters: one line saying what the role is for. */
export const PROFILE_DESCRIPTION_MAX = 200;
/** The longest charter, in characters. */
export const PROFILE_CHARTER_MAX = 20_000;

const modelName = z.string().trim().min(1).max(120).regex(/^[^\s"'`]+$/, 'a model name has no spaces or quotes');

/** The fields of a profile (the charter is the file's Markdown body). */
export const RoleProfileSchema = z
  .object({
    description: z
      .string()
      .trim()
      .min(1, 'say in one line what this role is for')
      .max(PROFILE_DESCRIPTION_MAX)
      .regex(/^[^\r\n]*$/, 'the description is one line'),
    charter: z.string().max(PROFILE_CHARTER_MAX),
    tools: z
      .object({
        /** Absent: every tool the harness offers; present: only these. */
        allow: z.array(NeutralToolSchema).optional(),
        deny: z.array(NeutralToolSchema).default([]),
      })
      .strict()
      .default({ deny: [] }),
    models: z
      .object({ claude: modelName.optional(), opencode: modelName.optional(), codex: modelName.optional() })
      .strict()
      .default({}),
    colour: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'a colour is #rrggbb')
      .optional(),
  })
  .strict();
export type RoleProfile = z.infer<typeof RoleProfileSchema>;

/** The tools a profile leaves the role: the allow list (or every tool) minus the deny list. */
export function effectiveTools(profile: Pick<RoleProfile, 'tools'>): NeutralTool[] {
  const allowed = profile.tools.allow ?? [...NEUTRAL_TOOLS];
  return NEUTRAL_TOOLS.filter((tool) => allowed.includes(tool) && !profile.tools.deny.includes(tool));
}

/** One problem with a profile's field, for showing next to that field (`field` is the dotted path, e.g. `models.claude`). */
export interface ProfileFieldError {
  field: string;
  message: string;
}

/** Checks profile fields with the schema's rules; the problems per field (empty when the profile is valid). */
export function profileFieldErrors(input: unknown): ProfileFieldError[] {
  const result = RoleProfileSchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return { field: issue.path.join('.') || 'profile', message: `unknown field ${issue.keys.slice(0, 3).join(', ')}` };
    return { field: issue.path.join('.') || 'profile', message: issue.message };
  });
}
