/** The Claude Code reader's public surface for the composition root and the CLI. */
export { createClaudeReader, type ClaudeReaderOptions } from './reader';
export { seatFromCliTarget } from './locate';
