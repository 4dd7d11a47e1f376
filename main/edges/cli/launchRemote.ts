/**
 * `agents launch --host <remote> …` (issue 42): the launch runs on that remote — its tmux, its harness homes, `--cwd`
 * a folder there — through the host's stream to it; the persona comes back namespaced (`@<host>:…`).
 */
import type { LaunchRequest, LaunchResult } from '../../../shared/launch';
import { createApp } from '../../setup/app';
import type { Router } from '../transport/router';
import { personaRecord } from './agents';
import type { CliIo } from './io';
import { harnessText, roleText } from '../../../shared/usagePhrases';

/**
 * Launches on a remote through any router that routes remotes (the hook `work-items dispatch --host` uses too): an
 * answer, or the refusal as `{ code, message }`.
 */
export async function launchOnHost(router: Router, request: LaunchRequest & { host: string }): Promise<{ ok: true; value: LaunchResult } | { ok: false; error: { code: string; message: string } }> {
  const answer = await router.handle('agents.launch', request);
  return answer.ok ? { ok: true, value: answer.value as LaunchResult } : { ok: false, error: answer.error };
}

/** Runs the launch on the remote and prints it as `agents launch` does. Exit 0 seated, 1 refused or not seated. */
export async function runRemoteLaunch(request: LaunchRequest & { host: string }, json: boolean, io: CliIo & { home: string }): Promise<number> {
  const app = await createApp({ home: io.home, mode: 'web', env: io.env, live: false, log: (message) => io.stderr(`${message}\n`) });
  try {
    const answer = await launchOnHost(app.router, request);
    if (!answer.ok) {
      io.stderr(`pixelfleet agents: ${answer.error.message}\n`);
      return 1;
    }
    const result = answer.value;
    if (json) {
      io.stdout(`${JSON.stringify({ persona: personaRecord(result.persona), host: request.host, tmuxSession: result.tmuxSession, attach: result.attach, seated: result.seated, reason: result.reason, note: result.note }, null, 2)}\n`);
    } else {
      io.stdout(`Hired ${result.persona.name} (${roleText(result.persona.role)}) on ${request.host} and started ${harnessText(request.harness)} in tmux session ${result.tmuxSession} there.\n${result.note ? `${result.note}\n` : ''}Attach on ${request.host} with: ${result.attach}\n`);
    }
    if (result.reason) io.stderr(`pixelfleet agents: ${result.reason}\n`);
    return result.seated ? 0 : 1;
  } finally {
    await app.dispose();
  }
}
