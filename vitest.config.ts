import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const CI = process.env['CI'] === 'true';
const ROOT = fileURLToPath(new URL('.', import.meta.url));

const alias = {
  '@guildhall/protocol': fileURLToPath(
    new URL('./packages/protocol/src/index.ts', import.meta.url),
  ),
};

/** The test files under `dir` (a path from the repository root), in order. */
function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found.sort();
}

/**
 * What starts a server in a test file: the test server, or a fixture or world built on it
 * (packages/server/test/support, one server per file and driver).
 */
const STARTS_A_SERVER =
  /startTestServer\(|useFileServer\(|use[A-Z]\w*(?:Fixture|World|Server)\(|createApp\(/;

const sources = [
  'packages/protocol/src',
  'packages/server/src',
  'packages/sdk/src',
  'packages/testkit/src',
].flatMap(testFiles);
/** The source tests that start a server: the API tests. The others are unit tests. */
const apiTests = sources.filter((file) => STARTS_A_SERVER.test(readFileSync(file, 'utf8')));

/**
 * A `--maxWorkers` on the command line caps every project: vitest would otherwise let each
 * project's own count win over it.
 */
const cliWorkers = Number(
  process.argv.find((arg) => arg.startsWith('--maxWorkers='))?.slice('--maxWorkers='.length) ??
    Infinity,
);
const workers = (count: number) => Math.min(count, cliWorkers);

/**
 * Runs each project's longest files first, so that no long file starts last and holds the run
 * while the other workers idle. How long a file takes comes from vitest's own cache of the last
 * run on this checkout, else from `vitest.durations.json` (recorded from a CI run by
 * `node scripts/testDurations.js`), which a clean clone has; files known to neither run first.
 * Projects keep vitest's order (`sequence.groupOrder`).
 */
class LongestFirst extends BaseSequencer {
  readonly #recorded: Record<string, number> = JSON.parse(
    readFileSync(join(ROOT, 'vitest.durations.json'), 'utf8'),
  ) as Record<string, number>;

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byProject = new Map<string, TestSpecification[]>();
    for (const file of await super.sort(files)) {
      const group = byProject.get(file.project.name) ?? [];
      group.push(file);
      byProject.set(file.project.name, group);
    }
    const cost = (file: TestSpecification) => {
      const path = relative(ROOT, file.moduleId).split(sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
      return cached?.duration ?? (this.#recorded[path] ?? Infinity) * 1000;
    };
    return [...byProject.values()].flatMap((group) => group.sort((a, b) => cost(b) - cost(a)));
  }
}

/**
 * What every Node project shares. Test files of one worker share its module graph instead of
 * importing the server (Fastify, discord.js, kysely, sharp…) again for each of them: about 3 s
 * per file. Nothing in the tests mocks modules or keeps state in them that another file reads.
 */
const node = {
  testTimeout: 20_000,
  hookTimeout: 30_000,
  pool: 'forks',
  isolate: false,
} as const;

/**
 * The projects run one after another (vitest runs projects of different worker counts in turn,
 * by `sequence.groupOrder`), each with the workers that suit it on the 2-core CI machine.
 */
const projects: TestProjectInlineConfiguration[] = [
  {
    resolve: { alias },
    test: {
      ...node,
      name: 'unit',
      // Domain logic, storage contracts and CLIs, no server: CPU-bound, one worker per core.
      include: sources,
      exclude: apiTests,
      maxWorkers: workers(2),
      sequence: { groupOrder: 0 },
    },
  },
  {
    resolve: { alias },
    test: {
      ...node,
      name: 'api',
      // One server per file and driver, each test seeding its own guild or app: most of the
      // time is waiting on PostgreSQL, so more workers than cores.
      include: apiTests,
      maxWorkers: workers(4),
      sequence: { groupOrder: 1 },
    },
  },
  {
    resolve: { alias },
    test: {
      ...node,
      name: 'flows',
      // Listening servers, real client libraries, child processes, several nodes, the browser
      // (Node drives Chromium): they start processes that need the cores too.
      include: ['packages/*/test/**/*.test.ts'],
      maxWorkers: workers(3),
      sequence: { groupOrder: 2 },
    },
  },
  {
    resolve: { alias },
    plugins: [react()],
    test: {
      name: 'web',
      // The pages' components, rendered in jsdom with Testing Library.
      include: ['packages/web/src/**/*.test.{ts,tsx}'],
      environment: 'jsdom',
      setupFiles: ['packages/web/src/test/pageState.ts'],
      testTimeout: node.testTimeout,
      hookTimeout: node.hookTimeout,
      pool: node.pool,
      // One module graph per worker, as for the Node projects; each file starts as a new page
      // would (pageState.ts).
      isolate: false,
      maxWorkers: workers(2),
      sequence: { groupOrder: 3 },
    },
  },
];

export default defineConfig({
  resolve: { alias },
  test: {
    // PostgreSQL, NATS, Redis and Chromium are probed once per run, here at the root and not in
    // each project; test files read the result (test/support/globalSetup.ts), which also counts
    // the test servers the run started.
    globalSetup: ['packages/server/test/support/globalSetup.ts'],
    // CI reads the JSON report for its plain "N passed, N failed" line (.ci/run).
    sequence: { sequencer: LongestFirst },
    reporters: CI ? ['default', ['json', { outputFile: '.vitest-results.json' }]] : ['default'],
    projects,
  },
});
