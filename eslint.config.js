// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import { layersRule } from './scripts/layersRule.js';
import { WINGS } from './scripts/wings.js';

/** Imports no file anywhere may make. */
const ALWAYS = [
  {
    group: ['@guildhall/*/src/*', '@guildhall/*/dist/*'],
    message: 'Import a package through its entry point.',
  },
  {
    group: [
      '**/storage/sqlite/*',
      '**/storage/postgres/*',
      '**/bus/memory/*',
      '**/bus/nats/*',
      '**/sharedState/memory/*',
      '**/sharedState/redis/*',
      '**/blobs/s3*',
    ],
    message:
      'Storage, bus, shared-state and blob drivers are chosen only in appDrivers.ts: import the folder index.',
  },
];

/** The features above `resources/`, and the entry points above everything. */
const ENTRY = [
  'app.js',
  'appControl.js',
  'appDrivers.js',
  'appRealtime.js',
  'appRoutes.js',
  'appServices.js',
  'appSweeps.js',
  'appTypes.js',
  'cli/',
  'control/',
  'demo.js',
  'index.js',
  'main.js',
];
const FEATURES = ['oauth/', 'gateway/', 'delivery/', 'activities/', 'rpc/', 'voice/', ...ENTRY];
/** The I/O layers, from the bottom up. */
const IO = ['storage/', 'bus/', 'sharedState/', 'blobs/', 'events/', 'http/', 'logger.js'];

/**
 * The top-level folders (`name/`) or files (`name.js`) of `packages/server/src` a block's files
 * may not import, checked on the resolved path by scripts/layersRule.js (`../voice/` from a
 * resource's folder is the sibling resource, not the feature).
 */
function above(names) {
  return { layers: names };
}

const INDEX_ONLY = 'Import another resource through its index.ts (its public surface).';
/**
 * The wing folders of `resources/` (scripts/wings.js), as a regex alternation. A resource lives
 * in `resources/<wing>/<name>/`; the patterns below also read the flat `resources/<name>/`.
 */
const WING = WINGS.map(({ wing }) => wing).join('|');
/**
 * From outside `resources/`: `…/resources/[<wing>/]<name>/<file>` other than the index. The wing
 * is taken whenever a folder follows it (a lookahead and a backreference, so it is not given
 * back to read `<wing>/` as the resource).
 */
const DEEP_RESOURCE_IMPORT = {
  regex: `(^|/)resources/(?=((?:${WING})/(?=[^/]+/))?)\\2[^/]+/(?!index\\.js$)`,
  message: INDEX_ONLY,
};
/** From a shared file directly in `resources/`: `./[<wing>/]<name>/<file>` other than the index. */
const DEEP_RESOURCE_IMPORT_FROM_ROOT = {
  regex: `^\\./(?=((?:${WING})/(?=[^/]+/))?)\\1[^/]+/(?!index\\.js$)`,
  message: INDEX_ONLY,
};
/**
 * From inside a resource: `../<other>/<file>` (its wing's) or `../../<wing>/<other>/<file>`
 * (another wing's) other than the index.
 */
const DEEP_SIBLING_RESOURCE_IMPORT = {
  regex: `^\\.\\./(?:\\.\\./(?:${WING})/)?[^./][^/]*/(?!index\\.js$)`,
  message: INDEX_ONLY,
};

function restrictImports(...patterns) {
  return ['error', { patterns: [...ALWAYS, ...patterns] }];
}

/**
 * A block's import rules: `patterns` for no-restricted-imports, and what {@link above} names for
 * the layers rule (off when nothing is named, as a later block's override turns it off).
 * @param {...({ layers: string[] } | Record<string, unknown>)} patterns
 */
function importRules(...patterns) {
  const layers = patterns.flatMap((pattern) =>
    Array.isArray(pattern.layers) ? pattern.layers : [],
  );
  return {
    'no-restricted-imports': restrictImports(
      ...patterns.filter((pattern) => !Array.isArray(pattern.layers)),
    ),
    'guildhall/layers': layers.length === 0 ? 'off' : ['error', { forbid: layers }],
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'packages/server/bundle*/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      'packages/sdk-cpp/build*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: './tsconfig.test.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    plugins: { guildhall: { rules: { layers: layersRule } } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-console': 'error',
      'max-params': ['error', 3],
      ...importRules(),
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read the environment only in main.ts and config.ts.',
        },
      ],
    },
  },
  {
    files: [
      'packages/server/src/main.ts',
      'packages/server/src/config.ts',
      '**/*.test.ts',
      'packages/server/test/**',
      'packages/testkit/test/**',
      'packages/sdk-cpp/test/**',
      'bench/**',
      'examples/**',
      '.ci/**',
      'vitest.config.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  // Layers (docs/architecture.md#which-folder-may-import-which): each group may import only
  // downwards, and another resource only through its index.ts.
  {
    files: ['packages/server/src/**/*.ts'],
    rules: { ...importRules(DEEP_RESOURCE_IMPORT) },
  },
  {
    files: ['packages/server/src/resources/*.ts'],
    rules: {
      ...importRules(DEEP_RESOURCE_IMPORT_FROM_ROOT, above(FEATURES)),
    },
  },
  {
    files: ['packages/server/src/resources/*/**/*.ts'],
    rules: {
      ...importRules(DEEP_SIBLING_RESOURCE_IMPORT, above(FEATURES)),
    },
  },
  {
    files: ['packages/server/src/delivery/**/*.ts'],
    rules: {
      ...importRules(
        DEEP_RESOURCE_IMPORT,
        above(['oauth/', 'gateway/', 'activities/', 'rpc/', 'voice/', ...ENTRY]),
      ),
    },
  },
  {
    // The features beside each other: the gateway and voice share only what lies below both.
    files: ['packages/server/src/oauth/**/*.ts', 'packages/server/src/gateway/**/*.ts'],
    rules: {
      ...importRules(DEEP_RESOURCE_IMPORT, above(['activities/', 'rpc/', 'voice/', ...ENTRY])),
    },
  },
  {
    // Voice nodes: the bus, shared state and storage, never the main gateway nor the resources.
    files: ['packages/server/src/voice/**/*.ts'],
    rules: {
      ...importRules(
        above(['resources/', 'oauth/', 'gateway/', 'delivery/', 'activities/', 'rpc/', ...ENTRY]),
      ),
    },
  },
  {
    // Activities reach the resources (message channel access) and delivery's URL policy.
    files: ['packages/server/src/activities/**/*.ts'],
    rules: {
      ...importRules(
        DEEP_RESOURCE_IMPORT,
        above(['oauth/', 'gateway/', 'rpc/', 'voice/', ...ENTRY]),
      ),
    },
  },
  {
    // The local RPC server speaks the gateway's activity schema and nothing else of the server.
    files: ['packages/server/src/rpc/**/*.ts'],
    rules: {
      ...importRules(
        above([...IO, 'resources/', 'oauth/', 'delivery/', 'activities/', 'voice/', ...ENTRY]),
      ),
    },
  },
  {
    // Test controls (worlds, reset, clock, faults): beside the composition root, which wires
    // them in; they see the App's type and everything below it, never the root's other files
    // nor the entry points.
    files: ['packages/server/src/control/**/*.ts'],
    rules: {
      ...importRules(
        DEEP_RESOURCE_IMPORT,
        above(['rpc/', ...ENTRY.filter((name) => name !== 'appTypes.js' && name !== 'control/')]),
      ),
    },
  },
  {
    files: ['packages/server/src/http/**/*.ts', 'packages/server/src/events/**/*.ts'],
    rules: { ...importRules(above(['resources/', ...FEATURES])) },
  },
  // The files directly in src/ below the entry points (their imports start with `./`).
  {
    // Settings, flags and logging: over domain/ and each other only.
    files: [
      'packages/server/src/logger.ts',
      'packages/server/src/logDestination.ts',
      'packages/server/src/logPretty.ts',
      'packages/server/src/config.ts',
      'packages/server/src/configSettings.ts',
      'packages/server/src/configTypes.ts',
      'packages/server/src/configDeploySettings.ts',
      'packages/server/src/configParsers.ts',
      'packages/server/src/cliFlags.ts',
    ],
    rules: {
      ...importRules(
        above([...IO.filter((name) => name !== 'logger.js'), 'resources/', ...FEATURES]),
      ),
    },
  },
  {
    // The server secret key, its rotation and the worker lease: over config, domain/ and storage/.
    files: [
      'packages/server/src/secrets.ts',
      'packages/server/src/secretRotation.ts',
      'packages/server/src/workerLease.ts',
    ],
    rules: {
      ...importRules(
        above([...IO.filter((name) => name !== 'storage/'), 'resources/', ...FEATURES]),
      ),
    },
  },
  {
    // The operator command's shape: a leaf the features and cli/ share, over storage/ and blobs/.
    files: ['packages/server/src/adminCommand.ts'],
    rules: {
      ...importRules(
        above(['bus/', 'sharedState/', 'events/', 'http/', 'resources/', ...FEATURES]),
      ),
    },
  },
  {
    files: ['packages/server/src/storage/**/*.ts', 'packages/server/src/bus/**/*.ts'],
    rules: {
      ...importRules(
        above([
          'http/',
          'events/',
          'blobs/',
          'sharedState/',
          'logger.js',
          'resources/',
          ...FEATURES,
        ]),
      ),
    },
  },
  {
    // Shared limits and presences: infrastructure beside storage and bus, over domain/ only.
    files: ['packages/server/src/sharedState/**/*.ts'],
    rules: {
      ...importRules(
        above([
          'storage/',
          'bus/',
          'http/',
          'events/',
          'blobs/',
          'logger.js',
          'resources/',
          ...FEATURES,
        ]),
      ),
    },
  },
  {
    // Stored files are freed after a commit (events/afterCommit.ts), so blobs/ sits above events/.
    files: ['packages/server/src/blobs/**/*.ts'],
    rules: {
      ...importRules(above(['http/', 'logger.js', 'resources/', ...FEATURES])),
    },
  },
  {
    // Pure rules: no I/O layer, nothing above them.
    files: ['packages/server/src/domain/**/*.ts', 'packages/server/src/errors/**/*.ts'],
    rules: {
      ...importRules(
        above([
          'storage/',
          'bus/',
          'sharedState/',
          'blobs/',
          'http/',
          'events/',
          'logger.js',
          'resources/',
          ...FEATURES,
        ]),
      ),
    },
  },
  {
    // The wire vocabulary stands alone.
    files: ['packages/protocol/**/*.ts'],
    rules: {
      ...importRules({
        regex: '(^@guildhall/server|(^|/)server/)',
        message: '@guildhall/protocol imports nothing from the server.',
      }),
    },
  },
  {
    // The composition root and tests pick drivers; everything else sees only the interfaces.
    files: [
      'packages/server/src/app.ts',
      'packages/server/src/appDrivers.ts',
      '**/*.test.ts',
      'packages/server/test/**',
    ],
    rules: { 'no-restricted-imports': 'off', 'guildhall/layers': 'off' },
  },
  {
    files: ['bench/**', 'examples/**', '.ci/**', 'packages/server/src/cli/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // No module may reach itself through its imports (type-only imports are erased and not
    // counted). Tests import freely, so only the sources are checked.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: './tsconfig.test.json' }),
      ],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // The web pages (packages/web): a browser program with its own tsconfig (DOM, JSX, bundler
    // resolution). The server's layers do not apply; React's hook rules do.
    files: ['packages/web/src/**/*.{ts,tsx}', 'packages/web/vite.config.ts'],
    languageOptions: {
      parserOptions: {
        project: './packages/web/tsconfig.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-properties': 'off',
    },
  },
  {
    // The Social SDK (packages/sdk): one source for Node and browsers, with its own tsconfig (DOM).
    // Only the Node entry and its platform module may reach Node's modules or \`ws\`; the browser
    // bundle's build fails on them too (packages/sdk/vite.config.ts).
    files: ['packages/sdk/**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: './packages/sdk/tsconfig.test.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // The client's operations keep the reference SDK's positional arguments.
    files: ['packages/sdk/src/client.ts'],
    rules: { 'max-params': 'off' },
  },
  {
    files: ['packages/sdk/src/**/*.ts'],
    ignores: [
      'packages/sdk/src/node.ts',
      'packages/sdk/src/platform/node.ts',
      'packages/sdk/src/platform/nodeVoice*.ts',
      '**/*.test.ts',
    ],
    rules: {
      ...importRules({
        regex: '^(node:|ws$)',
        message: 'The SDK runs in browsers: Node-only modules belong in src/platform/node.ts.',
      }),
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
