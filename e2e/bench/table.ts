/**
 * The closing table of `npm run bench`: each bench area adds rows (figure, goal, this run's value, whether it holds);
 * the runner prints them as one table at the end, or as JSON with `--json`.
 */

/** One figure of this run, as printed and as emitted by `--json`. */
export interface BenchRow {
  figure: string;
  goal: string;
  value: number | null;
  unit: string;
  holds: boolean;
  /** Frames per second drawn while measured: present on rows whose goal names a frame rate. */
  frames?: number;
}

/** A goal: its printed form and the test a value must pass. */
export interface Goal {
  text: string;
  test: (value: number) => boolean;
}

/** Goal: strictly below `limit`. */
export function below(limit: number): Goal {
  return { text: `< ${formatNumber(limit)}`, test: (value) => value < limit };
}

/** Goal: at most `limit`. */
export function atMost(limit: number): Goal {
  return { text: `≤ ${formatNumber(limit)}`, test: (value) => value <= limit };
}

/** Goal: at least `limit`. */
export function atLeast(limit: number): Goal {
  return { text: `≥ ${formatNumber(limit)}`, test: (value) => value >= limit };
}

/** What a bench area hands to `table.add`. */
export interface FigureInput {
  /** What is measured, e.g. "`pixelfleet --version`, over bare node". */
  figure: string;
  goal: Goal;
  /** This run's value in `unit`; null when it could not be measured (then it does not hold). */
  value: number | null;
  unit: string;
  /** A side condition the goal also needs, e.g. `{ text: 'at ≥ 20 fps', holds: fps >= 20 }`. */
  also?: { text: string; holds: boolean };
  /** Frames per second drawn while measured, carried into the row (and `--json`) when the goal names a frame rate. */
  frames?: number;
}

/** Collects the rows of one run. Bench areas receive it as their second argument. */
export class BenchTable {
  readonly rows: BenchRow[] = [];

  /** Adds one figure and returns its row (value rounded for printing; holds judged on the unrounded value). */
  add(input: FigureInput): BenchRow {
    const measured = input.value !== null && Number.isFinite(input.value);
    const holds = measured && input.goal.test(input.value as number) && (input.also?.holds ?? true);
    const row: BenchRow = {
      figure: input.figure,
      goal: `${input.goal.text} ${input.unit}${input.also ? ` ${input.also.text}` : ''}`,
      value: measured ? round(input.value as number) : null,
      unit: input.unit,
      holds,
    };
    if (input.frames !== undefined) row.frames = Number.isFinite(input.frames) ? round(input.frames) : 0;
    this.rows.push(row);
    return row;
  }
}

/** The middle value of a run's samples (the upper one of an even count): a busy machine stretches some samples. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A bench area: prints progress lines through `log` and adds its figures to `table`. */
export type BenchArea = (log: (line: string) => void, table: BenchTable) => Promise<void>;

/** The rows as a plain-text table with aligned columns. */
export function formatTable(rows: readonly BenchRow[]): string {
  const header = ['figure', 'goal', 'this run', 'holds'];
  const cells = rows.map((row) => [row.figure, row.goal, row.value === null ? 'n/a' : `${formatNumber(row.value)} ${row.unit}`, row.holds ? 'yes' : 'NO']);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column].length)));
  const line = (cell: string[]) => `| ${cell.map((text, column) => text.padEnd(widths[column])).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(header), rule, ...cells.map(line)].join('\n');
}

/** Three significant digits at most, never more than two decimals. */
function round(value: number): number {
  const magnitude = Math.abs(value);
  const decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  return Number(value.toFixed(decimals));
}

function formatNumber(value: number): string {
  return value.toLocaleString('en', { maximumFractionDigits: 2 });
}
