/**
 * The native Social SDK (packages/sdk-cpp) against a real Guildhall: the library builds (shared,
 * static, installed with its CMake package), its GoogleTest suite passes (and once more under
 * AddressSanitizer and UndefinedBehaviorSanitizer), and the examples, built out of tree against
 * the installed package, play: the C program over the C API, and two console players. Under
 * CI=true a missing compiler or package fails the run (.ci/run installs them); elsewhere these
 * tests are skipped without them.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ASAN_DIR,
  BUILD_DIR,
  EXAMPLES_BUILD_DIR,
  PREFIX_DIR,
  buildExamples,
  buildLibrary,
  buildSanitized,
  missingToolchain,
  run,
  type Ran,
} from './nativeBuild.js';
import { startNativeWorld, type NativeWorld } from './nativeWorld.js';
import { ConsolePlayer } from './consolePlayer.js';

const CI = process.env['CI'] === 'true';
const missing = missingToolchain();
const BUILD_TIMEOUT_MS = 40 * 60_000;
const SUITE_TIMEOUT_MS = 10 * 60_000;

describe.skipIf(missing !== null && !CI)('the native Social SDK (C++ and C)', () => {
  let world: NativeWorld | null = null;
  /** Whether this run built the library: the later tests never run a binary a failed build left. */
  let libraryBuilt = false;
  let examplesBuilt = false;
  /**
   * The sanitized build, started with the plain one: on two cores each has stretches where it
   * uses one (a link, the precompiled header, its last batch) that the other fills.
   */
  let sanitized: Promise<Ran> | null = null;
  const live = (): NativeWorld => {
    if (world === null) throw new Error('no server');
    return world;
  };

  beforeAll(async () => {
    if (missing === null) sanitized = buildSanitized();
    world = await startNativeWorld();
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  }, 60_000);

  /** A provisional account's token, minted by the app's bot (the game's backend). */
  const mint = async (name: string): Promise<string> => {
    const res = await fetch(`${live().apiBase}/partner-sdk/token/bot`, {
      method: 'POST',
      headers: { authorization: `Bot ${live().dev.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ external_user_id: `c-${name}-${String(Date.now())}` }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  };

  it('has its compiler and packages', () => {
    expect(missing).toBeNull();
  });

  it(
    'builds the shared and static library and installs its CMake package',
    async () => {
      const built = await buildLibrary();
      expect(built.code, built.output).toBe(0);
      libraryBuilt = true;
      for (const file of [
        'lib/libplatformpp.so',
        'lib/libplatformpp.a',
        'include/platformpp.h',
        'include/platformpp_c.h',
        'lib/cmake/platformpp/platformppConfig.cmake',
        'lib/cmake/platformpp/platformppTargets.cmake',
      ]) {
        expect(existsSync(`${PREFIX_DIR}/${file}`), file).toBe(true);
      }
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'passes its GoogleTest suite against the server',
    async () => {
      expect(libraryBuilt, 'the library built in this run').toBe(true);
      const ran = await run(`${BUILD_DIR}/test/platformpp_tests`, ['--gtest_color=no'], {
        env: { PLATFORMPP_TEST_WORLD: await live().forRun() },
        timeoutMs: SUITE_TIMEOUT_MS,
      });
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toMatch(/\[ {2}PASSED {2}\] \d+ tests/);
    },
    SUITE_TIMEOUT_MS,
  );

  it(
    'passes the same suite built with AddressSanitizer and UndefinedBehaviorSanitizer',
    async () => {
      const built = await (sanitized ?? buildSanitized());
      expect(built.code, built.output).toBe(0);
      const ran = await run(`${ASAN_DIR}/test/platformpp_tests`, ['--gtest_color=no'], {
        env: {
          PLATFORMPP_TEST_WORLD: await live().forRun(),
          ASAN_OPTIONS: 'detect_leaks=1:strict_string_checks=1',
          UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
        },
        timeoutMs: SUITE_TIMEOUT_MS,
      });
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).not.toMatch(/runtime error|AddressSanitizer|LeakSanitizer/);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'builds the examples out of tree with find_package; the C program plays over the C API',
    async () => {
      expect(libraryBuilt, 'the library built in this run').toBe(true);
      const built = await buildExamples();
      expect(built.code, built.output).toBe(0);
      examplesBuilt = true;
      const ran = await run(`${EXAMPLES_BUILD_DIR}/c-social`, [], {
        env: {
          API_URL: live().apiBase,
          TOKEN_A: await mint('ada'),
          TOKEN_B: await mint('bob'),
        },
        timeoutMs: 120_000,
      });
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toContain('c-social: every step passed');
    },
    BUILD_TIMEOUT_MS,
  );

  it('two console players: friends, presence, DMs and lobby chat', async () => {
    expect(examplesBuilt, 'the examples built in this run').toBe(true);
    const args = ['--api', live().apiBase, '--bot-token', live().dev.botToken];
    const suffix = String(Date.now() % 100000);
    const ada = new ConsolePlayer(`${EXAMPLES_BUILD_DIR}/social-game`, `Ada${suffix}`, args);
    const bob = new ConsolePlayer(`${EXAMPLES_BUILD_DIR}/social-game`, `Bob${suffix}`, args);
    try {
      await ada.waitFor(/\[ready\] You are Ada\d+ \(id (\d+)\)/);
      const [, bobId] = await bob.waitFor(/\[ready\] You are Bob\d+ \(id (\d+)\)/);
      ada.type(`/friend ${String(bobId)}`);
      await bob.waitFor(new RegExp(`\\[friend request\\] from ${ada.name}`));
      bob.type('/accept');
      await ada.waitFor(new RegExp(`\\[friend\\] ${bob.name} is your friend`));
      await bob.waitFor(new RegExp(`\\[friend\\] ${ada.name} is your friend`));
      ada.type('/status Hunting dragons');
      await bob.waitFor(new RegExp(`\\[presence\\] ${ada.name}: Hunting dragons`));
      ada.type(`/dm ${bob.name} hello there`);
      await bob.waitFor(new RegExp(`\\[dm\\] ${ada.name}: hello there`));
      bob.type(`/dm ${ada.name} hi back`);
      await ada.waitFor(new RegExp(`\\[dm\\] ${bob.name}: hi back`));
      ada.type(`/lobby den-${suffix}`);
      await ada.waitFor(/\[lobby\] joined/);
      bob.type(`/lobby den-${suffix}`);
      await ada.waitFor(new RegExp(`\\[lobby\\] ${bob.name} joined`));
      bob.type('/say ready when you are');
      await ada.waitFor(new RegExp(`\\[lobby\\] ${bob.name}: ready when you are`));
      expect(await ada.quit()).toBe(0);
      expect(await bob.quit()).toBe(0);
    } finally {
      ada.kill();
      bob.kill();
    }
  }, 120_000);
});
