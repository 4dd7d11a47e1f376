/** The Codex CLI reader's public surface for tests and benches. */
export { createCodexReader } from './reader';
