/**
 * `remote test`: one round over the same ssh call the host makes (same program, same arguments) — the hello, then
 * `app.info` — timed, and told as the issue spells it. Another contract version is not merely "unreachable": it says
 * which Pixelfleet the remote needs.
 */
import { spawn } from 'node:child_process';
import { CONTRACT_VERSION } from '../../../shared/contract';
import { createLineDecoder, encodeFrame, frameOrFault, type FrameEvent } from './framing';
import { checkHello, helloFrame } from './protocol';
import { skewSentence, sshArguments } from './RemoteLink';
import type { Remote } from './remoteStore';
import { HELLO_TIMEOUT_MS, REMOTE_REQUEST_TIMEOUT_MS, STDERR_TAIL_CHARS } from './bounds';

/** What `remote test --json` prints; absent (null) means unknown. */
export interface RemoteTestResult {
  reachable: boolean;
  latencyMs: number | null;
  app: string | null;
  contract: number | null;
  harnesses: { claude: boolean | null; codex: boolean | null; opencode: boolean | null };
  tmux: boolean | null;
  error?: string;
}

const UNKNOWN_HARNESSES = { claude: null, codex: null, opencode: null };

/** Runs the test; never throws (a failure is the result's `error`). */
export function testRemote(remote: Remote, options: { env: NodeJS.ProcessEnv; appVersion: string; timeoutMs?: number }): Promise<RemoteTestResult> {
  const ssh = options.env.PIXELFLEET_SSH || 'ssh';
  const result: RemoteTestResult = { reachable: false, latencyMs: null, app: null, contract: null, harnesses: { ...UNKNOWN_HARNESSES }, tmux: null };
  return new Promise((resolve) => {
    let stderr = '';
    let done = false;
    let greeted = false;
    const started = performance.now();
    const child = spawn(ssh, sshArguments(remote), { stdio: ['pipe', 'pipe', 'pipe'], env: options.env });
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error !== undefined) {
        result.error = error;
        if (!greeted) result.reachable = false;
      }
      child.stdin?.end();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      resolve(result);
    };
    const timer = setTimeout(() => finish(greeted ? `${remote.name} did not answer app.info in time` : `no hello from ${remote.name} within ${(options.timeoutMs ?? HELLO_TIMEOUT_MS) / 1000} s`), options.timeoutMs ?? HELLO_TIMEOUT_MS + REMOTE_REQUEST_TIMEOUT_MS);
    const onFrame = (event: FrameEvent) => {
      const step = frameOrFault(event, { tooLarge: (bytes) => `it sent a frame of ${bytes} bytes, over the bound`, garbage: (reason) => `it answered garbage (${reason})` });
      if (step === null || done) return;
      if ('fault' in step) return finish(step.fault);
      const frame = step.frame;
      if (!greeted) {
        const hello = checkHello(frame, options.appVersion, 'remote');
        const said = (frame as { hello?: { app?: unknown; contract?: unknown } }).hello;
        if (typeof said?.app === 'string') result.app = said.app.slice(0, 64);
        if (typeof said?.contract === 'number') result.contract = said.contract;
        if (!hello.ok) return finish(hello.kind === 'mismatch' ? skewSentence(options.appVersion, remote.name, frame) : 'it answered garbage instead of a hello');
        if ((frame as { error?: unknown }).error) return finish(`refused: ${String((frame as { error: { message?: unknown } }).error.message)}`);
        greeted = true;
        result.reachable = true;
        result.latencyMs = Math.round(performance.now() - started);
        child.stdin!.write(encodeFrame({ id: 1, channel: 'app.info', payload: {} })!);
        return;
      }
      if (frame.id !== 1) return;
      const info = (frame.ok === true ? frame.value : null) as { version?: unknown; harnesses?: Record<string, unknown>; tmux?: unknown } | null;
      if (!info) return finish(`${remote.name} refused app.info`);
      if (typeof info.version === 'string') result.app = info.version.slice(0, 64);
      for (const harness of ['claude', 'codex', 'opencode'] as const) {
        const found = info.harnesses?.[harness];
        result.harnesses[harness] = typeof found === 'boolean' ? found : null;
      }
      result.tmux = typeof info.tmux === 'boolean' ? info.tmux : null;
      finish();
    };
    const decoder = createLineDecoder(onFrame);
    child.stdout!.on('data', (chunk: Buffer) => decoder.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)));
    child.stdin!.on('error', () => undefined);
    child.on('error', (error) => finish(`could not start ${ssh}: ${error.message}`));
    child.on('close', (code, signal) => {
      decoder.end();
      const said = stderr.trim().split('\n').pop()?.trim();
      finish(said ? said : `ssh ended (${signal ?? `exit ${code}`})`);
    });
    child.stdin!.write(encodeFrame(helloFrame(options.appVersion))!);
  });
}

/** The result as lines for a person. */
export function describeTest(name: string, result: RemoteTestResult): string {
  const yes = (value: boolean | null) => (value === null ? '?' : value ? 'yes' : 'no');
  const lines = [
    result.reachable ? `${name}: reachable in ${result.latencyMs} ms` : `${name}: not reachable${result.error ? ` — ${result.error}` : ''}`,
    `  Pixelfleet ${result.app ?? '?'}, contract version ${result.contract ?? '?'} (this host: ${CONTRACT_VERSION})`,
    `  homes found: claude ${yes(result.harnesses.claude)}, codex ${yes(result.harnesses.codex)}, opencode ${yes(result.harnesses.opencode)}; tmux ${yes(result.tmux)}`,
  ];
  if (result.reachable && result.error) lines.push(`  problem: ${result.error}`);
  return `${lines.join('\n')}\n`;
}
