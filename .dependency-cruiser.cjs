/**
 * Import rules `pnpm lint` holds the code to (docs/ARCHITECTURE.md, "Guards").
 * Violations that predate a rule are listed in .dependency-cruiser-known-violations.json: they fail
 * nothing, a new one fails lint, and the list only shrinks (`pnpm lint:imports:baseline` rewrites it
 * after one is mended).
 */
const source = '^(api|web)/src/';
const generated = '(^|/)(generated|__generated__)/';

module.exports = {
  forbidden: [
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment: 'A file must not import, through any chain, a file that imports it.',
      from: { path: source },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'A folder must not depend, through any chain, on a folder that depends on it: each can then be read, moved and tested alone.',
      scope: 'folder',
      from: { path: '^web/src/' },
      to: { circular: true },
    },
    {
      // The API's domains still call each other for side effects (issue 54's domain events end
      // that). dependency-cruiser's known-violations list does not cover folder rules, so until
      // then these are listed as warnings on every lint rather than failing it.
      name: 'no-folder-cycles-api',
      severity: 'warn',
      comment: 'As no-folder-cycles, for the API: to become an error once its domains stop calling each other.',
      scope: 'folder',
      from: { path: '^api/src/' },
      to: { circular: true },
    },
    {
      name: 'side-effects-from-their-home',
      severity: 'error',
      comment:
        'Notifications, the activity feed and e-mail follow what domains record (domain events); a domain never calls them.',
      from: {
        path: '^api/src/',
        pathNot: [
          '^api/src/(notifications|activity|infra/mail)/',
          '^api/src/(app|main|rest|context|graphql/schema)\\.ts$',
          '\\.test\\.ts$',
          'testing\\.ts$',
        ],
      },
      to: { path: '^api/src/(notifications|activity|infra/mail)/' },
    },
    {
      name: 'web-no-lazy-queries',
      severity: 'error',
      comment: 'Screens and dialogs load with useQueryLoader/loadQuery; biome also refuses useLazyLoadQuery.',
      from: { path: '^web/src/' },
      to: { path: '^web/src/relay/lazy' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: [generated, '\\.test\\.tsx?$', '/e2e/'] },
    includeOnly: source,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
