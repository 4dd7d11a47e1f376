/**
 * A child process for the crash test: `burstWriter.ts <home> <seats>` records bursts of changes into
 * `<home>/history.sqlite` through the history service, each burst changing every seat's activity label to
 * `burst-<n>` (one transaction), and prints `committed <n>` after each, until it is killed.
 */
import { join } from 'node:path';
import { HistoryService } from '../HistoryService';
import { activity, persona, seat } from './records';

const [home, seatsText] = process.argv.slice(2);
const seats = Number(seatsText);
const service = await HistoryService.open({ file: join(home, 'history.sqlite'), record: true });
const ids = Array.from({ length: seats }, (_, index) => `claude:s${index}`);
const personas = ids.map((_, index) => persona(`p${index}`, `Agent ${index}`));
service.onEvent('fleet.changed', { snapshot: { cursor: 1, seats: ids.map((id, index) => seat(id, `p${index}`, activity('working', new Date().toISOString()))), personas, stations: [] } });
process.stdout.write('ready\n');
for (let burst = 1; ; burst += 1) {
  const at = new Date().toISOString();
  service.onEvent('fleet.patched', {
    patch: { from: burst, cursor: burst + 1, seats: { set: ids.map((id, index) => seat(id, `p${index}`, activity('working', at, undefined, `burst-${burst}`))) } },
  });
  if (!service.recording) throw new Error('recording stopped');
  process.stdout.write(`committed ${burst}\n`);
  // Yield now and then so the parent's kill lands while bursts keep coming.
  if (burst % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
}
