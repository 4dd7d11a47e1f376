/** The Claude Code reader's public surface for tests and benches. */
export { createClaudeReader } from './reader';
