/**
 * One meaning of `partial` for every command (issue 37): a one-off command that reads usage waits, as `usage` does,
 * for the background pass to count the open sessions whole (at most USAGE_CLI_WAIT_MS), then reads again; what is
 * still being counted after that keeps `partial: true` ("≥"). So `fleet --json` and `usage --json` say the same of
 * the same seat.
 */
import { USAGE_CLI_WAIT_MS } from '../../kit/usage/bounds';
import type { App } from '../../setup/app';
import type { FleetSnapshot } from '../../../shared/schemas';
import type { CliIo } from './io';

/** Reads again after the pass settles while `partial` holds, a few times within the wait; says on stderr what it does. */
export async function settledUsage<T>(io: Pick<CliIo, 'stderr'>, app: Pick<App, 'usageIdle'>, read: () => Promise<T>, partial: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + USAGE_CLI_WAIT_MS;
  let value = await read();
  // A listing of a session's subagent files starts their passes, so a read after a settled pass can find more to
  // count: a few rounds, each waiting for the pass to be idle.
  for (let round = 0; round < 4 && partial(value); round += 1) {
    if (round === 0) io.stderr('pixelfleet: counting whole sessions…\n');
    const left = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const waited = left > 0 && (await Promise.race([app.usageIdle().then(() => true), new Promise<false>((done) => (timer = setTimeout(() => done(false), left)))]));
    clearTimeout(timer);
    value = await read();
    if (!waited) break;
  }
  if (partial(value)) io.stderr(`pixelfleet: still counting after ${USAGE_CLI_WAIT_MS / 1000} s; figures marked partial ("≥") are lower bounds.\n`);
  return value;
}

/** True when any seat's usage (with its subagents) or the fleet's usage line is partial. */
export function snapshotPartial(snapshot: FleetSnapshot): boolean {
  if (snapshot.usage?.open.partial) return true;
  return snapshot.seats.some((seat) => seat.usage !== undefined && (seat.usage.withSubagents?.partial ?? seat.usage.partial));
}
