/** The teams port the fleet uses: teams and messages for the addressed Claude seats, and the folders to watch. */
import path from 'node:path';
import type { Seat, SeatAddress, Team } from '../../../shared/schemas';
import { readTeams, teamWatchPaths, type TeamSeat } from './TeamReader';

/** What the fleet asks of the team reader. */
export interface TeamsPort {
  read(seats: readonly Seat[]): Promise<Team[]>;
  watchPaths(addresses: readonly SeatAddress[]): string[];
}

function teamSeats(seats: readonly Seat[]): TeamSeat[] {
  return seats
    .filter((seat) => seat.harness === 'claude')
    .map((seat) => ({ seatId: seat.id, personaId: seat.personaId, home: seat.address.home, sessionId: seat.address.sessionId, activity: seat.activity }));
}

/**
 * The team reader behind the fleet's port. It remembers the inbox folders of the teams it last read, so the watcher
 * (one level deep) hears of new messages; the safety poll covers a team that appears between reads.
 */
export function createTeamsPort(): TeamsPort {
  let inboxFolders: string[] = [];
  // The watcher asks after every census, for the same homes nearly always: their team folders are worked out once.
  let teamFolders: { homes: string[]; paths: string[] } = { homes: [], paths: [] };
  const teamFoldersOf = (homes: string[]): string[] => {
    const known = teamFolders;
    if (known.homes.length !== homes.length || homes.some((home, index) => home !== known.homes[index])) teamFolders = { homes, paths: teamWatchPaths(homes) };
    return teamFolders.paths;
  };
  return {
    async read(seats) {
      const found = await readTeams(teamSeats(seats));
      inboxFolders = found.map((entry) => entry.folder);
      return found.map((entry) => entry.team);
    },
    watchPaths: (addresses) => [
      ...teamFoldersOf(addresses.filter((address) => address.harness === 'claude').map((address) => address.home)),
      ...inboxFolders.map((folder) => path.join(folder, 'inboxes')),
    ],
  };
}
