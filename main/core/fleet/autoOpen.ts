/**
 * The optional auto-open rules ("open every new Claude session started in ~/src/app"): an explicit owner
 * choice per working folder, off by default. Only sessions that appear while Pixelfleet runs count as new.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Candidate, Harness } from '../../../shared/schemas';
import { harnessOf } from '../../sources/readers/registry';
import type { FleetService } from './FleetService';

/** One rule from settings.json's `autoOpen`. */
export interface AutoOpenRule {
  harness: Harness;
  cwd: string;
}

function expand(path: string): string {
  return resolve(path.startsWith('~') ? homedir() + path.slice(1) : path);
}

/** True when the candidate is a session of the rule's harness started in the rule's folder. */
export function ruleMatches(rule: AutoOpenRule, candidate: Candidate): boolean {
  if (rule.harness !== candidate.harness) return false;
  const folder = expand(rule.cwd);
  if (candidate.seat.cwd) return resolve(candidate.seat.cwd) === folder;
  // Without a recorded folder, only the harness's own layout can tell (a Claude journal's folder name).
  return harnessOf(candidate.harness).startedIn(candidate, folder);
}

/** Applies the rules on each poll. */
export class AutoOpen {
  private seen: Set<string> | null = null;

  constructor(private readonly options: { fleet: FleetService; rules: AutoOpenRule[]; log?: (message: string) => void }) {}

  /** Opens every matching session first seen since the previous check. */
  async check(): Promise<string[]> {
    if (this.options.rules.length === 0) return [];
    const candidates = await this.options.fleet.candidates({ refresh: true });
    const first = this.seen === null;
    const seen = this.seen ?? new Set<string>();
    const opened: string[] = [];
    for (const candidate of candidates) {
      if (seen.has(candidate.id)) continue;
      seen.add(candidate.id);
      if (first || candidate.opened) continue;
      if (!this.options.rules.some((rule) => ruleMatches(rule, candidate))) continue;
      try {
        await this.options.fleet.openSeat({ candidateId: candidate.id });
        opened.push(candidate.id);
      } catch (error) {
        this.options.log?.(`pixelfleet: auto-open of ${candidate.id} failed: ${String(error)}`);
      }
    }
    this.seen = seen;
    return opened;
  }
}
