/**
 * The header of an agent's card: name, role, harness and project folder (the seat's working folder, the owner's
 * home shown as `~`). A small reusable piece: `agentCardFacts` is pure, `AgentCardHeader` updates text in place.
 */
import type { FleetSnapshot, Harness } from '../../shared/schemas';
import { element } from './dom';
import { harnessLabel } from './harnessMark';
import { PixelTitle } from './pixelTitle';
import { roleText } from '../../shared/usagePhrases';

/** What the header shows; `null` fields are unknown and say so. */
export interface AgentCardFacts {
  personaId: string;
  name: string;
  role: string | null;
  harness: Harness | null;
  folder: string | null;
  /** The remote host the agent lives on, or null for this machine (two agents may share a name across hosts). */
  host?: string | null;
}

/** A path with the owner's home replaced by `~` (only at a folder boundary). */
export function tildePath(folder: string, home: string | undefined): string {
  if (!home) return folder;
  const trimmed = home.replace(/[\\/]+$/, '');
  if (trimmed === '') return folder;
  if (folder === trimmed) return '~';
  const next = folder.charAt(trimmed.length);
  return folder.startsWith(trimmed) && (next === '/' || next === '\\') ? `~${folder.slice(trimmed.length)}` : folder;
}

/** The header facts of one agent from a snapshot, or null when the agent is not in it. */
export function agentCardFacts(fleet: FleetSnapshot | null, personaId: string): AgentCardFacts | null {
  const persona = fleet?.personas.find((entry) => entry.id === personaId);
  if (!persona) return null;
  const seat = fleet?.seats.find((entry) => entry.personaId === personaId);
  const cwd = seat?.address.cwd ?? null;
  return { personaId, name: persona.name, role: persona.role ?? null, harness: seat?.harness ?? persona.seat?.harness ?? null, folder: cwd ? tildePath(cwd, fleet?.ownerHome) : null, host: persona.host ?? null };
}

/** The header element; `update` changes only the texts that changed, so it never disturbs focus or selection. */
export class AgentCardHeader {
  readonly root: HTMLElement;
  private readonly name = new PixelTitle('h2', { class: 'pixel-title agent-card-name', 'data-card-name': true });
  private readonly role = element('span', { class: 'agent-card-role', 'data-card-role': true });
  private readonly harness = element('span', { class: 'agent-card-harness', 'data-card-harness': true });
  private readonly folder = element('span', { class: 'agent-card-folder', 'data-card-folder': true });
  private readonly host = element('span', { class: 'agent-card-host queue-host-tag', 'data-card-host': true, hidden: true });
  private shownHarness: Harness | null | undefined = undefined;

  constructor() {
    const facts = element('p', { class: 'agent-card-facts' }, this.host, this.role, this.harness, this.folder);
    this.root = element('div', { class: 'agent-card-header', 'data-agent-card-header': true }, this.name.root, facts);
  }

  /** Shows the facts of one agent. */
  update(facts: AgentCardFacts): void {
    this.name.set(facts.name);
    setText(this.role, roleText(facts.role));
    this.host.hidden = !facts.host;
    setText(this.host, facts.host ? `on ${facts.host}` : '');
    // The harness's mark and name; rebuilt only when the harness changes.
    if (this.shownHarness !== facts.harness) {
      this.shownHarness = facts.harness;
      this.harness.dataset.cardHarness = facts.harness ?? '';
      this.harness.replaceChildren(harnessLabel(facts.harness));
    }
    setText(this.folder, facts.folder ?? 'folder unknown');
    if (facts.folder) this.folder.title = facts.folder;
    else this.folder.removeAttribute('title');
  }
}

function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}
