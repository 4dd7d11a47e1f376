/**
 * What the owner reads when a Claude subagent cannot be replayed (rule 14 of RULES.md): each sentence says what
 * happened and what, if anything, the owner can do. None carries prompt or message text.
 */

/** Bytes of a journal read on a cold start, as the sentences name it. */
function mebibytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

/** Short notes shown on a tray row that cannot be replayed. */
export const TRAY_NOTES = {
  /** Rule 11: a running call no recorded locator names yet. */
  notLocated: 'live transcript not located yet; replay opens when the call records its agent id',
  /** Rule 13: a running 1.0.x call. */
  inlineNotWritten: 'no sidechain written yet: Claude Code 1.0 writes the conversation into the session when the subagent finishes',
  inlineAmbiguous: 'another call in this session gave the same prompt, so the two inline conversations cannot be told apart',
  inlineMissing: 'no inline conversation in the session matches this call',
  notRecorded: 'Claude Code recorded no agent id for this call, so its transcript cannot be located',
} as const;

/** Why a call the journal shows has nothing to replay; each has a tray note and a replay answer. */
export type Unreplayable = keyof typeof TRAY_NOTES;

/** Replay answers that are not a page (a refused cursor is answered by the kit's pager, ../kit/cursor). */
export const REPLAY_REASONS = {
  notRecorded:
    'Claude Code recorded no agent id for this call (it failed or was interrupted before reporting one), so its transcript cannot be located. Nothing can be replayed for it.',
  notLocated: `The ${TRAY_NOTES.notLocated}.`,
  notWrittenYet: "The subagent's transcript file is not on disk yet; replay opens once Claude Code writes it.",
  gone:
    'The subagent file was removed. Claude Code deletes session files older than its cleanupPeriodDays setting (30 days by default); raise it to keep transcripts longer.',
  inlineNotWritten: 'No sidechain written yet: Claude Code 1.0 writes a subagent’s conversation into the session only when it finishes. Replay opens then.',
  inlineAmbiguous:
    'Another call in this session gave exactly the same prompt, so their inline conversations cannot be told apart; none is shown rather than the wrong one.',
  inlineMissing: 'No inline conversation in the session matches this call’s prompt (Claude Code writes none for a call that failed to start). Nothing can be replayed for it.',
  inlineChanged: 'Refused: the session journal changed where this conversation was written; open the replay again.',
  notInSession: 'This subagent is not in the session journal any more (the journal was replaced or rewritten). Nothing can be replayed for it.',
  badAgentId: 'Refused: the recorded agent id is not a plain token, so it is never used as a file name.',
  mismatch: 'Refused: the transcript file does not belong to this subagent (its agent id or session id differ), so it is not shown.',
} as const;

/** The answer for a call that lies before the cold-read window and has no file of its own on disk (rule 12). */
export function olderThanWindow(coldBytes: number): string {
  return `The transcript is older than what Pixelfleet reads (the last ${mebibytes(coldBytes)} of the session); it is not on disk as a separate file, so it cannot be replayed.`;
}
