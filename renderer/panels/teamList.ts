/**
 * The teams in an agent's card: for an agent that leads or belongs to a Claude Code agent team, the team's name and
 * each member with its state — from the member's own seat where its session is one the owner opened, "not opened"
 * otherwise. Labels only. `teamCards` is pure; `TeamList` updates its rows in place.
 */
import type { Activity, FleetSnapshot } from '../../shared/schemas';
import { element } from './dom';

/** One member as the card lists it. */
export interface TeamMemberCard {
  name: string;
  lead: boolean;
  /** The member's state from its own seat, or 'not opened' when its session is not a seat here. */
  state: Activity['state'] | 'not opened';
  personaId: string | null;
  /** The agent whose card this is. */
  self: boolean;
}

/** One team as the card lists it. */
export interface TeamCard {
  name: string;
  leads: boolean;
  members: TeamMemberCard[];
}

/** The teams an agent leads or belongs to, in the snapshot's order. */
export function teamCards(fleet: Pick<FleetSnapshot, 'teams'> | null, personaId: string): TeamCard[] {
  return (fleet?.teams ?? [])
    .filter((team) => team.leadPersonaId === personaId || team.members.some((member) => member.personaId === personaId))
    .map((team) => ({
      name: team.name,
      leads: team.leadPersonaId === personaId,
      members: team.members.map((member) => ({
        name: member.name,
        lead: member.lead,
        state: member.seatId !== null ? member.state.state : 'not opened',
        personaId: member.personaId,
        self: member.personaId === personaId,
      })),
    }));
}

function memberText(member: TeamMemberCard): string {
  return `${member.name}${member.lead ? ' (lead)' : ''}${member.self ? ' — this agent' : ''}: ${member.state}`;
}

/** The card's team section; hidden when the agent is in no team. */
export class TeamList {
  readonly root = element('section', { class: 'agent-card-teams', 'data-card-teams': true });

  constructor() {
    this.root.hidden = true;
  }

  /** Shows an agent's teams; rows whose text did not change are left alone. */
  update(cards: readonly TeamCard[]): void {
    this.root.hidden = cards.length === 0;
    const wanted = cards.map((card) => card.name);
    for (const node of [...this.root.children]) if (!wanted.includes((node as HTMLElement).dataset.cardTeam ?? '')) node.remove();
    cards.forEach((card, index) => {
      let block = [...this.root.children].find((node) => (node as HTMLElement).dataset.cardTeam === card.name) as HTMLElement | undefined;
      if (!block) {
        block = element('div', { 'data-card-team': card.name }, element('h3', {}), element('ul', { class: 'team-members' }));
      }
      if (this.root.children[index] !== block) this.root.insertBefore(block, this.root.children[index] ?? null);
      const heading = block.querySelector('h3')!;
      const title = `Team ${card.name}${card.leads ? ' (this agent leads it)' : ''}`;
      if (heading.textContent !== title) heading.textContent = title;
      const list = block.querySelector('ul')!;
      while (list.children.length > card.members.length) list.lastElementChild!.remove();
      card.members.forEach((member, position) => {
        let row = list.children[position] as HTMLElement | undefined;
        if (!row) list.append((row = element('li', {})));
        if (row.dataset.teamMember !== member.name) row.dataset.teamMember = member.name;
        if (row.dataset.memberState !== member.state) row.dataset.memberState = member.state;
        const text = memberText(member);
        if (row.textContent !== text) row.textContent = text;
      });
    });
  }
}
