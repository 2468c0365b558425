/**
 * The native SDK's builds for its tests: CMake configures and builds into directories under
 * node_modules/.cache/platformpp (one per checkout and toolchain, so a copied cache never mixes
 * two), the library is installed into a prefix there, and the examples are built against that
 * prefix with find_package, as a game would. Each build keeps a stamp with the hash of what it
 * was built from: a run whose sources, toolchain and options match it builds nothing, and one
 * after a change rebuilds incrementally. Nothing is downloaded: the compilers and libraries are
 * Debian's (.ci/run installs them).
 *
 * @module
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SDK_DIR = fileURLToPath(new URL('..', import.meta.url));
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../examples/sdk-cpp', import.meta.url));
const REPO_DIR = fileURLToPath(new URL('../../..', import.meta.url));

/** What a tool says its version is, or "none" without it. */
function version(tool: string): string {
  try {
    return execFileSync(tool, ['--version'], { encoding: 'utf8' }).split('\n')[0] ?? '';
  } catch {
    return 'none';
  }
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const TOOLCHAIN = `${version('cmake')}\n${version('c++')}`;
/** One cache directory per checkout and toolchain. */
const CACHE_DIR = join(
  REPO_DIR,
  'node_modules/.cache/platformpp',
  sha(`${SDK_DIR}\n${TOOLCHAIN}`).slice(0, 16),
);
export const BUILD_DIR = join(CACHE_DIR, 'build');
export const ASAN_DIR = join(CACHE_DIR, 'build-asan');
export const PREFIX_DIR = join(CACHE_DIR, 'install');
export const EXAMPLES_BUILD_DIR = join(CACHE_DIR, 'build-examples');
const STAMP = '.platformpp-sources';

/** Every file under `dir` a build reads (not the TypeScript harness), in order. */
function buildInputs(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('build')) found.push(...buildInputs(path));
    } else if (/\.(?:c|cpp|h|in|txt)$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

/** The hash of the files under `dirs`, the toolchain and `options`. */
export function sourcesHash(dirs: string[], options: string[]): string {
  const hash = createHash('sha256').update(`${TOOLCHAIN}\n${options.join(' ')}\n`);
  for (const file of dirs.flatMap(buildInputs)) {
    hash.update(`${relative(REPO_DIR, file)}\n`).update(readFileSync(file));
  }
  return hash.digest('hex');
}

/** A build step on a busy 2-core machine (a clean sanitized build took 15 minutes on one). */
const STEP_TIMEOUT_MS = 35 * 60_000;
/** Two cores are what CI has. */
const JOBS = '2';

/** The Debian packages the native SDK builds with: `apt-get install -y …` (.ci/run does). */
export const NATIVE_PACKAGES =
  'cmake g++ libcurl4-openssl-dev libssl-dev zlib1g-dev nlohmann-json3-dev libgtest-dev';

/** What a build needs, by the files Debian's packages install. */
const REQUIRED_FILES = [
  '/usr/bin/cmake',
  '/usr/bin/c++',
  '/usr/include/nlohmann/json.hpp',
  '/usr/include/gtest/gtest.h',
  '/usr/include/zlib.h',
  '/usr/include/openssl/sha.h',
];

/** Why the native SDK cannot be built here, or null when it can. */
export function missingToolchain(): string | null {
  const missing = REQUIRED_FILES.filter((file) => !existsSync(file));
  const curl = ['/usr/include/curl/curl.h', '/usr/include/x86_64-linux-gnu/curl/curl.h'].some(
    (file) => existsSync(file),
  );
  if (!curl) missing.push('curl/curl.h');
  return missing.length === 0
    ? null
    : `missing ${missing.join(', ')}: apt-get install -y ${NATIVE_PACKAGES}`;
}

const DEFAULT_TIMEOUT_MS = 600_000;

export interface Ran {
  code: number | null;
  output: string;
}

/** Runs a program without a shell; its stdout and stderr together. Never rejects. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? SDK_DIR,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed after ${String(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)} ms]`;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Runs each step; the first that fails ends it with its output. */
async function steps(list: [string, string[], string?][]): Promise<Ran> {
  let output = '';
  for (const [command, args, cwd] of list) {
    const ran = await run(command, args, {
      timeoutMs: STEP_TIMEOUT_MS,
      ...(cwd === undefined ? {} : { cwd }),
    });
    output += `$ ${command} ${args.join(' ')}\n${ran.output}`;
    if (ran.code !== 0) return { code: ran.code, output };
  }
  return { code: 0, output };
}

interface Build {
  /** The build directory, where the stamp is kept. */
  dir: string;
  /** The hash of what it is built from (sourcesHash). */
  inputs: string;
  /** Files a finished build has. */
  outputs: string[];
  steps: [string, string[], string?][];
}

/**
 * Runs the steps of a build unless its stamp says the same inputs were built there and its
 * outputs exist; a build that passes writes the stamp.
 */
async function cachedBuild({ dir, inputs, outputs, steps: list }: Build): Promise<Ran> {
  const stamp = join(dir, STAMP);
  const built = existsSync(stamp) ? readFileSync(stamp, 'utf8') : '';
  if (built === inputs && outputs.every((file) => existsSync(file))) {
    return { code: 0, output: `${dir}: up to date (${inputs.slice(0, 12)})` };
  }
  const ran = await steps(list);
  if (ran.code === 0) writeFileSync(stamp, inputs);
  return ran;
}

/**
 * Both builds keep their build type's optimization but emit line tables only (-g1): enough for
 * a sanitizer's or a debugger's stack trace with files and lines, and a third less CPU time than
 * full debug information (-g), most of it nlohmann/json's template instances.
 */
const LIBRARY_OPTIONS = [
  '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
  '-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG',
  '-DPLATFORMPP_TESTS=ON',
  '-DPLATFORMPP_WERROR=ON',
];
const SANITIZED_OPTIONS = [
  '-DCMAKE_BUILD_TYPE=Debug',
  '-DCMAKE_CXX_FLAGS_DEBUG=-g1',
  '-DPLATFORMPP_SANITIZE=ON',
  '-DPLATFORMPP_SHARED=OFF',
  '-DPLATFORMPP_TESTS=ON',
  '-DPLATFORMPP_WERROR=ON',
];

/** The library (shared and static), the test binary, and the install into PREFIX_DIR. */
export function buildLibrary(): Promise<Ran> {
  return cachedBuild({
    dir: BUILD_DIR,
    inputs: sourcesHash([SDK_DIR], LIBRARY_OPTIONS),
    outputs: [join(BUILD_DIR, 'test/platformpp_tests'), join(PREFIX_DIR, 'lib/libplatformpp.so')],
    steps: [
      ['cmake', ['-S', SDK_DIR, '-B', BUILD_DIR, ...LIBRARY_OPTIONS]],
      ['cmake', ['--build', BUILD_DIR, '-j', JOBS]],
      ['cmake', ['--install', BUILD_DIR, '--prefix', PREFIX_DIR]],
    ],
  });
}

/** The test binary once more, with AddressSanitizer and UndefinedBehaviorSanitizer. */
export function buildSanitized(): Promise<Ran> {
  return cachedBuild({
    dir: ASAN_DIR,
    inputs: sourcesHash([SDK_DIR], SANITIZED_OPTIONS),
    outputs: [join(ASAN_DIR, 'test/platformpp_tests')],
    steps: [
      ['cmake', ['-S', SDK_DIR, '-B', ASAN_DIR, ...SANITIZED_OPTIONS]],
      ['cmake', ['--build', ASAN_DIR, '--target', 'platformpp_tests', '-j', JOBS]],
    ],
  });
}

/** The examples, an out-of-tree consumer of the installed package (find_package(platformpp)). */
export function buildExamples(): Promise<Ran> {
  const options = [`-DCMAKE_PREFIX_PATH=${PREFIX_DIR}`];
  return cachedBuild({
    dir: EXAMPLES_BUILD_DIR,
    inputs: sourcesHash([SDK_DIR, EXAMPLES_DIR], options),
    outputs: [join(EXAMPLES_BUILD_DIR, 'c-social'), join(EXAMPLES_BUILD_DIR, 'social-game')],
    steps: [
      ['cmake', ['-S', EXAMPLES_DIR, '-B', EXAMPLES_BUILD_DIR, ...options]],
      ['cmake', ['--build', EXAMPLES_BUILD_DIR, '-j', JOBS]],
    ],
  });
}
