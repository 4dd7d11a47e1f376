/** The Codex CLI reader's public surface. */
export { createCodexReader, seatFromCliTarget, type CodexReaderOptions } from './reader';
export { countingFileSystem, nodeFileSystem, type CodexFileSystem } from './fileSystem';
