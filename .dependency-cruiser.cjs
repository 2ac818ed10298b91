// Layering rules, checked by `npm test` (scripts/repo-checks.ts): dependencies point downward,
// apps and tools → workflows / activities → packages, and nothing imports in a circle. Tests may reach across
// (an API test starts the sandbox PAC), production source may not.
const TESTS = '(^|/)(test|tests)/|\\.test\\.ts$|/testing/';
const UPPER = '^(apps|cli|tools|bench|scripts)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one: neither can be read, tested or changed alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-stay-below',
      severity: 'error',
      comment:
        'packages/ and catalogs/ are the bottom layer: they never import workflows, activities, apps or tools.',
      from: { path: '^(packages|catalogs)/', pathNot: TESTS },
      to: { path: `${UPPER}|^(workflows|activities)/` },
    },
    {
      name: 'activities-below-workflows',
      severity: 'error',
      comment:
        'Activities and workflows meet only through @cfdi/temporal-contract (the Activities interface, names, types).',
      from: { path: '^activities/', pathNot: TESTS },
      to: { path: `${UPPER}|^workflows/` },
    },
    {
      name: 'workflows-see-only-the-contract',
      severity: 'error',
      comment: 'Workflows are deterministic: no activity code, no I/O package at run time (types are fine).',
      from: { path: '^workflows/src/' },
      to: {
        path: `${UPPER}|^activities/|^packages/(services|db|pac|storage|devstack|testkit)/`,
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'apps-do-not-import-apps',
      severity: 'error',
      comment: 'An app reaches another only over the network; shared code belongs in a package.',
      from: { path: '^apps/([^/]+)/', pathNot: TESTS },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'cli-does-not-import-apps',
      severity: 'error',
      from: { path: '^cli/', pathNot: TESTS },
      to: { path: '^(apps|tools)/' },
    },
    {
      name: 'production-code-does-not-use-test-helpers',
      severity: 'error',
      from: { pathNot: `${TESTS}|^(bench|scripts|tools)/|^packages/(testkit|devstack)/` },
      to: { path: '^packages/testkit/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.next|var)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
