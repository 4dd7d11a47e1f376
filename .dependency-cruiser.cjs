// The house's one-way rules, checked by `npm run deps` (dependency-cruiser). Each rule's message names the rule;
// ARCHITECTURE.md states the same rules in words.
const HARNESS = 'main/sources/readers/(claude|codex|opencode)/';
const TEST = '[.]test[.]ts$|/testing/|/fixtures/';

/** A forbidden-import rule whose message starts with its own name, so a failure says which rule broke. */
function rule(name, message, from, to) {
  return { name, severity: 'error', comment: `${name}: ${message}`, from, to };
}

module.exports = {
  forbidden: [
    rule('shared-stands-alone', 'shared/ imports nothing from main/ or renderer/.', { path: '^shared/', pathNot: TEST }, { path: '^(main|renderer)/' }),
    rule('renderer-not-main', 'renderer/ never imports main/; it speaks to main through the contract.', { path: '^renderer/' }, { path: '^main/' }),
    rule('electron-only-in-shell', 'only main/electron imports electron.', { pathNot: '^main/electron/' }, { path: '^electron$|^electron/' }),
    rule('sources-look-down-only', 'sources/ imports none of core/, edges/, setup/, dev/.', { path: '^main/sources/', pathNot: TEST }, { path: '^main/(core|edges|setup|dev)/' }),
    rule('core-not-outward', 'core/ imports none of edges/, setup/, dev/.', { path: '^main/core/', pathNot: TEST }, { path: '^main/(edges|setup|dev)/' }),
    rule('harness-folders-apart', 'a harness folder never imports another harness folder.', { path: `^${HARNESS}` }, { path: '^main/sources/readers/(claude|codex|opencode)/', pathNot: `^main/sources/readers/$1/` }),
    rule(
      'neutral-rooms-harness-blind',
      'a harness-neutral room never imports a harness folder (only the readers\' registry, setup/, dev/ and tests may).',
      { path: '^(main|renderer|shared)/', pathNot: `^${HARNESS}|^main/sources/readers/registry[.]ts$|^main/(setup|dev)/|${TEST}` },
      { path: `^${HARNESS}` },
    ),
    rule('product-not-dev', 'no product code imports dev/ (tests may).', { path: '^(main|renderer|shared)/', pathNot: `^main/dev/|^main/setup/|${TEST}` }, { path: '^main/dev/' }),
    rule('jobs-by-port', 'jobs/ imports neither personas/ nor history/: it gets aliases through its own port (jobs/aliasPort.ts).', { path: '^main/core/jobs/', pathNot: TEST }, { path: '^main/core/(personas|history)/' }),
    rule('history-not-jobs', 'history/ imports nothing of jobs/ (it fills the jobs board\'s alias port).', { path: '^main/core/history/', pathNot: TEST }, { path: '^main/core/jobs/' }),
    rule('kit-stands-alone', 'main/kit, the neutral floor every room may use, imports nothing else of main/.', { path: '^main/kit/', pathNot: TEST }, { path: '^main/', pathNot: '^main/kit/' }),
    // A cycle spanning more than two files is what the map forbids; dependency-cruiser cannot count a cycle's files,
    // and none is left, so every cycle (a pair of files too) fails.
    rule('no-cycle', 'no import cycle (the map forbids any spanning more than two files; none is left at all).', {}, { circular: true }),
    { name: 'no-orphan', severity: 'error', comment: 'no-orphan: every module is imported by something or is an entry.', from: { orphan: true, pathNot: '[.]d[.]m?ts$|[.]test[.]ts$|/fixtures/|^main/electron/(main|preload)[.]ts$|^renderer/(main|vite[.]config)[.]ts$' }, to: {} },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.mjs', '.js', '.d.mts', '.d.ts'] },
  },
};
