// The layering the README's "Architecture" section describes, checked by `npm run lint`.
// Paths are resolved files, so a rule sees through `../..` however it is spelled.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'modules-without-fastify',
      comment: 'Modules are framework-free: HTTP is a shell around them.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: 'node_modules/(fastify|@fastify/[^/]+|fastify-[^/]+)/' },
    },
    {
      name: 'modules-below-http',
      comment: 'Modules know nothing of the shells (HTTP, processes) nor of the composition root and its registry of repositories.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/(http|main)/|^src/(container|repositories)\\.ts$' },
    },
    {
      name: 'module-through-index',
      comment: "One module reaches another only through its index.ts, the module's public surface.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'http-through-index',
      comment: 'Routes use modules through their public surface.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      // Type-only imports too: the slice of repositories a service uses is wired in the
      // composition root, so a module has no use for another's repository file; what it reads or
      // writes of another module's tables is a port, a narrow type that module's index.ts exports
      // (the webhooks module's EventOutbox, the sales module's SaleRecords).
      name: 'no-foreign-repository',
      comment: "A module never imports another module's repository: it calls a port the other's index.ts exports.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/.+\\.repository\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      // Without this an index.ts could hand a repository to every module (and route) at once,
      // and the rule above would see only imports of the index.
      name: 'index-without-repository',
      comment: "A module's public surface exports ports and services, never a repository (nor its types).",
      severity: 'error',
      from: { path: '^src/modules/[^/]+/index\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      name: 'repository-in-composition-root',
      comment: 'Outside its module, a repository is built by the composition root (container.ts, repositories.ts) alone.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(modules|http)/|^src/(container|repositories)\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      // Type-only imports too: a route has no use for a repository's or the database's types
      // (it gets services from the container), and allowing them would invite the value next.
      name: 'http-without-persistence',
      comment: 'Routes go through services: never a repository, the store or the database.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '\\.repository\\.ts$|^src/repositories\\.ts$|^src/db/' },
    },
    {
      name: 'db-below-modules',
      comment: 'The database layer knows no module: the composition root hands the store its repositories.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(modules|http|main)/|^src/container\\.ts$' },
    },
    {
      name: 'lib-stands-alone',
      comment: 'lib/ holds errors, ids, clock, money: it imports nothing from src/.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      // Type-only imports count: they are erased at run time but not from the design. Two
      // modules that know each other's types are one module in two folders, and a back-arrow
      // between them hides among the forward ones.
      name: 'no-circular-between-modules',
      comment: 'Modules depend on each other one way, types included: no cycle leaves a module and comes back.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { circular: true, via: { pathNot: '^src/modules/$1/' } },
    },
    {
      // Within one folder a cycle through a type-only import is allowed (a helper naming its
      // caller's type): type stripping erases it, so it cannot change the order files load in.
      name: 'no-circular',
      comment: 'A runtime cycle makes load order matter and layers meaningless.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a typo, or a file the cruise could not read.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  required: [
    {
      // Guards the guard: without a TypeScript parser the cruise would see no import at all
      // and every rule above would pass.
      name: 'cruise-reads-typescript',
      comment: 'The composition root must be seen importing the store; if not, the parser is missing.',
      severity: 'error',
      module: { path: '^src/container\\.ts$' },
      to: { path: '^src/db/store\\.ts$' },
    },
  ],
  options: {
    // typescript@7 (tsc in Go) has no JavaScript API for dependency-cruiser to parse with; swc
    // parses TypeScript and tells type-only imports apart.
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    // Packages are found the way Node finds them (package.json "exports"), types as tsc does.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], mainFields: ['module', 'main', 'types'] },
  },
};
