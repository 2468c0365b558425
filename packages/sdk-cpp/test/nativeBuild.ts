/**
 * The native SDK's builds for its tests: CMake configures and builds into directories under
 * packages/sdk-cpp (kept between runs, so a second run only relinks), the library is installed
 * into a prefix there, and the examples are built against that prefix with find_package, as a
 * game would. Nothing is downloaded: the compilers and libraries are Debian's (.ci/run installs
 * them).
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SDK_DIR = fileURLToPath(new URL('..', import.meta.url));
export const BUILD_DIR = `${SDK_DIR}build`;
export const ASAN_DIR = `${SDK_DIR}build-asan`;
export const PREFIX_DIR = `${SDK_DIR}build/install`;
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../examples/sdk-cpp', import.meta.url));
export const EXAMPLES_BUILD_DIR = `${SDK_DIR}build-examples`;
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

/** The library (shared and static), the test binary, and the install into PREFIX_DIR. */
export function buildLibrary(): Promise<Ran> {
  return steps([
    ['cmake', ['-S', SDK_DIR, '-B', BUILD_DIR, '-DPLATFORMPP_TESTS=ON', '-DPLATFORMPP_WERROR=ON']],
    ['cmake', ['--build', BUILD_DIR, '-j', JOBS]],
    ['cmake', ['--install', BUILD_DIR, '--prefix', PREFIX_DIR]],
  ]);
}

/** The test binary once more, with AddressSanitizer and UndefinedBehaviorSanitizer. */
export function buildSanitized(): Promise<Ran> {
  return steps([
    [
      'cmake',
      [
        '-S',
        SDK_DIR,
        '-B',
        ASAN_DIR,
        '-DCMAKE_BUILD_TYPE=Debug',
        '-DPLATFORMPP_SANITIZE=ON',
        '-DPLATFORMPP_SHARED=OFF',
        '-DPLATFORMPP_TESTS=ON',
        '-DPLATFORMPP_WERROR=ON',
      ],
    ],
    ['cmake', ['--build', ASAN_DIR, '--target', 'platformpp_tests', '-j', JOBS]],
  ]);
}

/** The examples, an out-of-tree consumer of the installed package (find_package(platformpp)). */
export function buildExamples(): Promise<Ran> {
  return steps([
    ['cmake', ['-S', EXAMPLES_DIR, '-B', EXAMPLES_BUILD_DIR, `-DCMAKE_PREFIX_PATH=${PREFIX_DIR}`]],
    ['cmake', ['--build', EXAMPLES_BUILD_DIR, '-j', JOBS]],
  ]);
}
