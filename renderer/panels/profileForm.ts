/**
 * The profile panel's pure part: the form's values from a profile, the profile the values make (checked with the
 * shared profile rules, problems by field), and the project folder an export starts from. No DOM.
 */
import type { RequestOf } from '../../shared/contract';
import { NEUTRAL_TOOLS, profileFieldErrors, type NeutralTool, type ProfileFieldError, type RoleProfile } from '../../shared/roleProfile';
import { roleKey } from '../../shared/roles';
import type { FleetSnapshot } from '../../shared/schemas';

/** The harnesses a profile names a model for, in the form's order. */
export const PROFILE_HARNESSES = ['claude', 'opencode', 'codex'] as const;
export type ProfileHarness = (typeof PROFILE_HARNESSES)[number];

/** What the form holds. `allowAll` leaves the tools to the harness (no allow list). */
export interface ProfileFormValues {
  description: string;
  charter: string;
  allowAll: boolean;
  allow: NeutralTool[];
  deny: NeutralTool[];
  models: Record<ProfileHarness, string>;
  colour: string;
}

/** The form as it opens: the profile's fields, or empty ones for a role without a profile. */
export function profileFormValues(profile: RoleProfile | null): ProfileFormValues {
  return {
    description: profile?.description ?? '',
    charter: profile?.charter ?? '',
    allowAll: profile?.tools.allow === undefined,
    allow: profile?.tools.allow ? [...profile.tools.allow] : [...NEUTRAL_TOOLS],
    deny: profile ? [...profile.tools.deny] : [],
    models: { claude: profile?.models.claude ?? '', opencode: profile?.models.opencode ?? '', codex: profile?.models.codex ?? '' },
    colour: profile?.colour ?? '',
  };
}

/** The profile the values make (empty models and colour left out), and its problems by field. */
export function profileOfForm(values: ProfileFormValues): { profile: RequestOf<'roles.saveProfile'>['profile']; errors: ProfileFieldError[] } {
  const models = Object.fromEntries(PROFILE_HARNESSES.map((harness) => [harness, values.models[harness].trim()]).filter(([, model]) => model !== ''));
  const profile = {
    description: values.description.trim(),
    charter: values.charter.trim(),
    tools: { ...(values.allowAll ? {} : { allow: NEUTRAL_TOOLS.filter((tool) => values.allow.includes(tool)) }), deny: NEUTRAL_TOOLS.filter((tool) => values.deny.includes(tool)) },
    models,
    ...(values.colour.trim() !== '' ? { colour: values.colour.trim() } : {}),
  };
  return { profile, errors: profileFieldErrors(profile) };
}

/** Where a field's problem is shown: the field itself, or its group (`tools.allow.1` → `tools`). */
export function errorSlot(field: string): string {
  if (field.startsWith('tools')) return 'tools';
  if (field.startsWith('models.')) return field.split('.').slice(0, 2).join('.');
  return field.split('.')[0] || 'profile';
}

/** The most recent working folder of the station's agents (by the time their activity began), or '' when none is known. */
export function defaultExportFolder(fleet: FleetSnapshot | null, stationKey: string): string {
  if (!fleet) return '';
  const holders = new Set(fleet.personas.filter((persona) => persona.role && roleKey(persona.role) === stationKey).map((persona) => persona.id));
  const folders = fleet.seats
    .filter((seat) => holders.has(seat.personaId) && seat.address.cwd)
    .map((seat) => ({ cwd: seat.address.cwd!, since: seat.activity.since ? Date.parse(seat.activity.since) : Number.NEGATIVE_INFINITY }))
    .sort((first, second) => second.since - first.since);
  return folders[0]?.cwd ?? '';
}
