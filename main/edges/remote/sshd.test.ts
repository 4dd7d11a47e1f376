/**
 * A remote over real ssh: a private sshd on a loopback port (generated host key, one authorised client key, all in a
 * temp folder) and the real `ssh` client through PIXELFLEET_SSH (a wrapper adding only `-F` with that folder's
 * client config). Skipped, with the reason printed, where sshd, ssh or root is missing.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseOf } from '../../../shared/contract';
import { createApp, type App } from '../../setup/app';
import { main } from '../cli/index';
import { findOnPath } from '../../core/launch/tmux';
import { addRemote } from './remoteStore';

const SSHD = '/usr/sbin/sshd';
const ROOT = resolve(import.meta.dirname, '..', '..', '..');

function skipReason(): string | null {
  if (!existsSync(SSHD)) return `${SSHD} is absent (apt-get install openssh-server)`;
  if (!findOnPath('ssh', process.env) || !findOnPath('ssh-keygen', process.env)) return 'ssh or ssh-keygen is not on PATH (apt-get install openssh-client)';
  if (process.getuid?.() !== 0) return 'sshd needs root here to authenticate a login (privilege separation)';
  return null;
}
const reason = skipReason();
if (reason) console.log(`skipped: real sshd test: ${reason}`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function listening(port: number, sshd: ChildProcess, log: () => string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (sshd.exitCode !== null) throw new Error(`sshd exited: ${log()}`);
    const open = await new Promise<boolean>((done) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.destroy();
        done(true);
      });
      socket.on('error', () => done(false));
    });
    if (open) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`sshd did not listen: ${log()}`);
}

describe.skipIf(reason !== null)('a remote over real ssh', () => {
  let dir: string;
  let sshd: ChildProcess;
  let sshdLog = '';
  let app: App;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pixelfleet-sshd-'));
    // sshd refuses to start without its privilege separation folder; a bare container may lack it.
    if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
    await writeFile(join(dir, 'authorized_keys'), await readFile(join(dir, 'client_key.pub')));
    chmodSync(join(dir, 'authorized_keys'), 0o600);
    const port = await freePort();
    await writeFile(
      join(dir, 'sshd_config'),
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${join(dir, 'host_key')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        `PidFile ${join(dir, 'sshd.pid')}`,
        'StrictModes no',
        'UsePAM no',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        'PermitRootLogin prohibit-password',
        '',
      ].join('\n'),
    );
    await writeFile(
      join(dir, 'ssh_config'),
      [
        'Host *',
        `  Port ${port}`,
        `  IdentityFile ${join(dir, 'client_key')}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
        '  StrictHostKeyChecking accept-new',
        '  LogLevel ERROR',
        '',
      ].join('\n'),
    );
    await writeFile(join(dir, 'ssh'), `#!/bin/sh\nexec ssh -F '${join(dir, 'ssh_config')}' "$@"\n`, { mode: 0o755 });
    sshd = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'pipe', 'pipe'] });
    sshd.stderr!.on('data', (chunk) => (sshdLog += chunk));
    await listening(port, sshd, () => sshdLog);

    // The remote: a home with one hired agent, reached by the real ssh as root@127.0.0.1.
    const remoteHome = join(dir, 'remote-home');
    expect(await main(['agents', 'hire', '--name', 'Sol', '--role', 'researcher'], { stdout: () => {}, stderr: () => {}, env: { HOME: '/nonexistent-home', PIXELFLEET_HOME: remoteHome } })).toBe(0);
    const local = join(dir, 'local');
    const command = `env PIXELFLEET_HOME=${remoteHome} CLAUDE_CONFIG_DIR=${join(remoteHome, 'claude')} CODEX_HOME=${join(remoteHome, 'codex')} XDG_DATA_HOME=${join(remoteHome, 'data')} ${process.execPath} ${join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs')}`;
    await addRemote(local, { name: 'lab', destination: 'root@127.0.0.1', command });
    app = await createApp({
      home: local,
      mode: 'web',
      live: false,
      env: { HOME: '/nonexistent-home', PATH: process.env.PATH, CLAUDE_CONFIG_DIR: join(local, 'claude'), CODEX_HOME: join(local, 'codex'), XDG_DATA_HOME: join(local, 'data'), PIXELFLEET_SSH: join(dir, 'ssh') },
      log: () => {},
    });
  }, 60_000);

  afterAll(async () => {
    await app?.dispose();
    sshd?.kill('SIGTERM');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('brings the remote’s agents into the world and writes a role into the remote’s store', async () => {
    const read = await app.router.handle('fleet.read', {});
    expect(read.ok, JSON.stringify(read)).toBe(true);
    const snapshot = (read as { value: ResponseOf<'fleet.read'> }).value;
    const sol = snapshot.personas.find((persona) => persona.name === 'Sol');
    expect(sol, `notices: ${JSON.stringify(snapshot.notices)}; sshd: ${sshdLog}`).toMatchObject({ host: 'lab', role: 'researcher' });
    const set = await app.router.handle('personas.setRole', { personaId: sol!.id, role: 'planner' });
    expect(set).toMatchObject({ ok: true, value: { host: 'lab', role: 'planner' } });
    expect(await readFile(join(dir, 'remote-home', 'personas.json'), 'utf8')).toContain('"planner"');
  }, 60_000);
});
