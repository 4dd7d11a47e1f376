/**
 * The contract's role-profile channels over the profile store and the exporter: read a profile, save one the panel
 * edited (checked with the shared profile rules, each problem named by its field, nothing written on a problem), and
 * export or preview an agent definition. Expected refusals are values; a bad role is a ServiceError.
 */
import path from 'node:path';
import type { RequestOf, ResponseOf } from '../../../shared/contract';
import { profileFieldErrors } from '../../../shared/roleProfile';
import { parseRole } from '../../../shared/roles';
import { ServiceError } from '../../kit/errors';
import type { CodexFormat } from './codexFormat';
import { exportRole } from './exportAgent';
import { loadProfile, saveProfile } from './ProfileStore';
import { validateProfile } from './profileFile';

/** What the handlers need: the app home, the environment (harness folders, PATH for Codex) and, in tests, a Codex decision. */
export interface ProfileHandlerContext {
  home: string;
  env: NodeJS.ProcessEnv;
  codexFormat?: (env: NodeJS.ProcessEnv) => Promise<CodexFormat>;
}

function checkedRole(role: string): string {
  const parsed = parseRole(role);
  if (!parsed.ok) throw new ServiceError('invalid_role', parsed.reason);
  return parsed.role;
}

/** `roles.profile`: the role's profile as the app sees it. */
export async function readProfileView(context: ProfileHandlerContext, request: RequestOf<'roles.profile'>): Promise<ResponseOf<'roles.profile'>> {
  const loaded = await loadProfile(context.home, checkedRole(request.role));
  return { role: loaded.role, path: loaded.path, source: loaded.source, profile: loaded.profile, problem: loaded.problem ?? null };
}

/** `roles.saveProfile`: the problems field by field, or the profile written atomically and read back. */
export async function saveProfileView(context: ProfileHandlerContext, request: RequestOf<'roles.saveProfile'>): Promise<ResponseOf<'roles.saveProfile'>> {
  const role = checkedRole(request.role);
  const errors = profileFieldErrors(request.profile);
  const checked = validateProfile(request.profile);
  if (errors.length > 0 || !checked.ok) return { saved: false, errors: errors.length > 0 ? errors : [{ field: 'profile', message: checked.ok ? 'not valid' : checked.reason }] };
  await saveProfile(context.home, role, checked.profile);
  return { saved: true, view: await readProfileView(context, { role }) };
}

/** `roles.export`: renders and writes (or previews) one agent definition; project scope needs an absolute folder. */
export async function exportProfile(context: ProfileHandlerContext, request: RequestOf<'roles.export'>): Promise<ResponseOf<'roles.export'>> {
  const role = checkedRole(request.role);
  if (request.scope === 'project' && (request.dir === undefined || !path.isAbsolute(request.dir))) {
    throw new ServiceError('invalid_request', 'roles.export: dir: project scope needs the project folder as a full path.');
  }
  if (request.scope === 'user' && request.dir !== undefined) {
    throw new ServiceError('invalid_request', 'roles.export: dir: user scope writes to the harness\'s own folder; leave the folder out.');
  }
  const outcome = await exportRole({
    home: context.home,
    role,
    harness: request.harness,
    scope: request.scope,
    projectDir: path.resolve(request.dir ?? context.home),
    dryRun: request.dryRun,
    force: request.force,
    env: context.env,
    codexFormat: context.codexFormat,
  });
  return outcome.ok ? outcome : { ok: false, code: outcome.code, reason: outcome.reason, path: outcome.path ?? null };
}
