/**
 * The structure's rules, checked by `npm run lint` (docs/architecture.md, "Layers"): no import circle in the
 * packages' sources, type-only imports included; the platform (the domain) imports no outer layer; the storage
 * adapters import the platform's ports and no layer above them; only the entry points import the assembly;
 * the clocks import nothing but the platform; the wire package stands alone.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A circle of imports: one of its modules belongs elsewhere, or a shared piece in a module of its own.',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'platform-imports-no-outer-layer',
      severity: 'error',
      comment:
        'platform/ is the domain: it declares the ports the outer layers implement and imports none of them.',
      from: { path: '^packages/server/src/platform/' },
      to: {
        path: [
          '^packages/server/src/(gateway|delivery|storage|control|cli|operations|assembly|clock|tools)/',
          '^packages/server/src/[^/]+$',
        ],
      },
    },
    {
      name: 'storage-imports-no-layer-above',
      severity: 'error',
      comment:
        'storage/ holds the adapters of the platform ports: it imports the platform, never what uses it.',
      from: { path: '^packages/server/src/storage/' },
      to: { path: '^packages/server/src/(gateway|delivery|control|cli|assembly)/' },
    },
    {
      name: 'assembly-only-from-the-entry-points',
      severity: 'error',
      comment:
        'assembly/ puts the parts together: main.ts and tools/ start it; no part depends on how it is assembled.',
      from: {
        path: '^packages/server/src/',
        pathNot: '^packages/server/src/(assembly/|tools/|main\\.ts$)',
      },
      to: { path: '^packages/server/src/assembly/' },
    },
    {
      name: 'clock-imports-only-the-platform',
      severity: 'error',
      comment:
        'clock/ holds the clocks every part is given: it may use the platform vocabulary, nothing else.',
      from: { path: '^packages/server/src/clock/' },
      to: {
        path: '^packages/server/src/',
        pathNot: '^packages/server/src/(clock|platform)/',
      },
    },
    {
      name: 'wire-stands-alone',
      severity: 'error',
      comment:
        'wire is everything that crosses HTTP: clients and the server both use it, it uses neither.',
      from: { path: '^packages/wire/' },
      to: { path: '^packages/server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '/dist/', 'node_modules'] },
    // Type-only imports count: a circle of types is a circle a reader follows all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
  },
}
