/**
 * A WebSocket client that follows the fleet and the jobs board as the page does: whole versions replace, changes
 * apply onto the version they name, and a change that does not apply is healed by reading the whole thing again.
 * It counts each kind, so a test can tell that changes were sent and applied.
 */
import WebSocket from 'ws';
import type { JobBoard } from '../shared/jobs';
import type { FleetSnapshot } from '../shared/schemas';
import { applyFleetPatch, applyJobsPatch, type FleetPatch, type JobsPatch } from '../shared/updates';
import type { RunningHost } from './host';

/** What a follower counted. */
export interface FollowCounts {
  whole: number;
  patches: number;
  /** Whole reads after a change that did not apply. */
  healed: number;
  jobsWhole: number;
  jobsPatches: number;
  jobsHealed: number;
  /** Bytes of fleet and jobs events received. */
  bytes: number;
}

/** A follower of one host. */
export interface FleetFollower {
  fleet(): FleetSnapshot | null;
  jobs(): JobBoard | null;
  readonly counts: FollowCounts;
  /** Asks a channel over the follower's socket. */
  ask(channel: string, payload: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>;
  /** Resolves with the first followed snapshot `accept` takes (checked at once and after each update). */
  until(accept: (snapshot: FleetSnapshot) => boolean, timeoutMs?: number): Promise<FleetSnapshot>;
  close(): void;
}

/** Connects to `host` and follows its fleet and jobs board from a first whole read. */
export async function followFleet(host: RunningHost): Promise<FleetFollower> {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { origin: host.origin } });
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  const counts: FollowCounts = { whole: 0, patches: 0, healed: 0, jobsWhole: 0, jobsPatches: 0, jobsHealed: 0, bytes: 0 };
  let fleet: FleetSnapshot | null = null;
  let jobs: JobBoard | null = null;
  let nextId = 1;
  const waiting = new Map<number, (answer: { ok: boolean; value?: unknown; error?: { code: string; message: string } }) => void>();
  const watchers = new Set<() => void>();
  const ask: FleetFollower['ask'] = (channel, payload) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, channel, payload }));
    });
  let fleetReading = false;
  let jobsReading = false;
  const readFleet = async () => {
    fleetReading = true;
    const answer = await ask('fleet.read', {});
    fleetReading = false;
    if (answer.ok) fleet = answer.value as FleetSnapshot;
    for (const watcher of watchers) watcher();
  };
  const readJobs = async () => {
    jobsReading = true;
    const answer = await ask('jobs.list', { all: true });
    jobsReading = false;
    if (answer.ok) jobs = answer.value as JobBoard;
  };
  socket.on('message', (data) => {
    const text = data.toString();
    const message = JSON.parse(text) as { id?: number; event?: string; payload?: Record<string, unknown> };
    if (typeof message.id === 'number') {
      waiting.get(message.id)?.(message as never);
      waiting.delete(message.id);
      return;
    }
    if (!message.event?.startsWith('fleet.') && !message.event?.startsWith('jobs.')) return;
    counts.bytes += text.length;
    if (message.event === 'fleet.changed') {
      counts.whole++;
      const snapshot = message.payload!.snapshot as FleetSnapshot;
      if (!fleet || snapshot.cursor >= fleet.cursor) fleet = snapshot;
    } else if (message.event === 'fleet.patched') {
      counts.patches++;
      const patch = message.payload!.patch as FleetPatch;
      if (fleetReading || (fleet && patch.cursor <= fleet.cursor)) return;
      const next = fleet && applyFleetPatch(fleet, patch);
      if (next) fleet = next;
      else {
        counts.healed++;
        void readFleet();
        return;
      }
    } else if (message.event === 'jobs.changed') {
      counts.jobsWhole++;
      jobs = message.payload!.board as JobBoard;
    } else if (message.event === 'jobs.patched') {
      counts.jobsPatches++;
      const patch = message.payload!.patch as JobsPatch;
      if (jobsReading || (jobs?.revision !== undefined && patch.revision <= jobs.revision)) return;
      const next = jobs && applyJobsPatch(jobs, patch);
      if (next) jobs = next;
      else {
        counts.jobsHealed++;
        void readJobs();
      }
      return;
    }
    for (const watcher of watchers) watcher();
  });
  await Promise.all([readFleet(), readJobs()]);
  return {
    fleet: () => fleet,
    jobs: () => jobs,
    counts,
    ask,
    until(accept, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (fleet && accept(fleet)) {
            watchers.delete(check);
            clearTimeout(timer);
            resolve(fleet);
          }
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`the followed fleet did not reach the expected state within ${timeoutMs} ms (cursor ${fleet?.cursor ?? 'none'})`));
        }, timeoutMs);
        watchers.add(check);
        check();
      });
    },
    close: () => socket.close(),
  };
}
