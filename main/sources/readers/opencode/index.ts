/** The OpenCode reader's public surface for tests and benches. */
export { createOpenCodeReader } from './reader';
