/** The demo fleet: simulated Claude Code sessions in the real journal format. */
export { startDemo } from './simulator';
