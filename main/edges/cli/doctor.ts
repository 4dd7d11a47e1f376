/** `pixelfleet doctor [--json]`: whether each harness's records still match what the readers know (issue 29). */
import { resolveHarnessHomes } from '../../sources/readers/homes';
import { demoHomes, gatherFindings, openedSeats } from '../doctor/gather';
import { doctorReport, reportText, VERDICT_EXIT } from '../doctor/report';
import { parseArgs, rejectUnknown } from '../../setup/args';
import type { CliIo } from './io';

/** Runs doctor over the app home; exits 0 when every harness is ok, 1 on drift, 2 when something could not be read. */
export async function runDoctorCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, []);
  rejectUnknown(args, ['json']);
  const demo = await demoHomes(io.home);
  const homes = demo ?? resolveHarnessHomes(io.env);
  const opened = await openedSeats(io.home);
  if (opened.problem) io.stderr(`pixelfleet: ${opened.problem}; reading the newest sessions instead.\n`);
  const report = doctorReport(io.home, demo !== null, await gatherFindings(homes, opened.seats));
  io.stdout(args.flags.has('json') ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
  return VERDICT_EXIT[report.verdict];
}
