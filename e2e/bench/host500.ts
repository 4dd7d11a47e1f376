import { readdir, readFile, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { followFleet } from '../fleetFollower';
import { freshHome, removeHome, startHost } from '../host';
import { clockTicks, cpuSeconds } from './measure';

const SECONDS = Number(process.argv[2]) || 20;
const dir = '/tmp/hp/prof500';
await rm(dir, { recursive: true, force: true });
await mkdir(dir, { recursive: true });
const home = await freshHome('pixelfleet-hp5-');
const host = await startHost({ home, args: ['--demo', '--agents', process.argv[3] ?? '500'] });
const follower = await followFleet(host);
await new Promise((d) => setTimeout(d, 8000));
const t = clockTicks();
const c0 = await cpuSeconds(host.pid, t); const w0 = performance.now();
await new Promise((d) => setTimeout(d, SECONDS * 1000));
const c1 = await cpuSeconds(host.pid, t); const w1 = performance.now();
console.log(`CPU ${(((c1! - c0!) / ((w1 - w0) / 1000)) * 100).toFixed(1)} %`);
follower.close();
await host.stop();
await removeHome(home);
const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
for (const f of files) {
  const p = JSON.parse(await readFile(join(dir, f), 'utf8'));
  const byId = new Map(p.nodes.map((n: any) => [n.id, n]));
  const parents = new Map<number, any>();
  for (const n of p.nodes) for (const c of n.children ?? []) parents.set(c, n);
  const self = new Map<string, number>(); const total = new Map<string, number>();
  let all = 0;
  const key = (n: any) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\/(main|node_modules)\//, '$1/')}:${n.callFrame.lineNumber}`;
  p.samples.forEach((id: number, i: number) => {
    const dt = p.timeDeltas[i] ?? 0; all += dt;
    let n: any = byId.get(id);
    self.set(key(n), (self.get(key(n)) ?? 0) + dt);
    const seen = new Set<string>();
    while (n) { const k = key(n); if (!seen.has(k)) { seen.add(k); total.set(k, (total.get(k) ?? 0) + dt); } n = parents.get(n.id); }
  });
  console.log(`\n${f}: ${(all / 1e6).toFixed(1)} s profiled`);
  console.log('-- self'); for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((v / all) * 100).toFixed(1).padStart(5)}%  ${k}`);
  console.log('-- total'); for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 80)) console.log(`${((v / all) * 100).toFixed(1).padStart(5)}%  ${k}`);
}
