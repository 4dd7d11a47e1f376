/** The demo fleet: simulated Claude Code sessions in the real journal format, and a bench journal writer. */
export { startDemo, type DemoFleet, type DemoOptions, type DemoSession } from './simulator';
export { writeJournalForBench, type BenchJournalOptions } from './benchJournal';
export { backlogFiles, writeBacklog } from './backlog';
