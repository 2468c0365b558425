// The package as a bundle: the `guildhall` executable (packages/server/bundle/guildhall.js, from
// the compiled dist/main.js) and the library `import '@guildhall/server'` loads (bundle/index.js,
// from dist/index.js; the test kit's), with their dependencies, in shared chunks, plus chunks for
// what loads on demand (PostgreSQL, NATS, Redis, S3, voice, YAML, TLS certificates). Loading ~1,000 small modules costs Node more
// than parsing the same code from a few files (resolving, reading and linking each), which made
// `guildhall start` and a test kit's first start spend most of their time importing (docs/benchmarks.md, "Start work").
//
// Native addons (better-sqlite3, sharp, the DAVE library) and the S3 client stay outside and
// load from node_modules as before. The chunks sit flat beside the entry, one folder below the
// package root as dist/'s root modules do, so `new URL('../…', import.meta.url)` finds the same
// files from both (storage/migrations.ts looks one level further up for its own depth).
//
// Skips the work when the bundle is newer than every file it was built from (esbuild's metafile,
// kept beside it), so `npm run build` costs nothing here when nothing changed.
//
// Usage: node scripts/bundleCli.js [--force]
import {
  chmodSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}/bundle`;
const entries = { guildhall: `${root}/dist/main.js`, index: `${root}/dist/index.js` };
const output = `${outdir}/guildhall.js`;
const metafile = `${outdir}/meta.json`;

/** Packages with native parts, or too large to be worth inlining for a start (S3). */
const EXTERNAL = ['better-sqlite3', 'sharp', 'pg-native', '@snazzah/*', '@aws-sdk/*'];

/** True when the bundle was built of these entries and no input of it changed since. */
function upToDate() {
  if (!existsSync(output) || !existsSync(metafile)) return false;
  const built = statSync(output).mtimeMs;
  try {
    const { inputs, entries: builtOf } = JSON.parse(readFileSync(metafile, 'utf8'));
    if (JSON.stringify(builtOf) !== JSON.stringify(entries)) return false;
    return Object.keys(inputs).every((input) => {
      const path = `${root}/${input}`;
      return existsSync(path) && statSync(path).mtimeMs <= built;
    });
  } catch {
    return false;
  }
}

if (!Object.values(entries).every((entry) => existsSync(entry))) {
  process.stderr.write('bundleCli: dist/ has no build; run `npx tsc -b` first.\n');
  process.exit(1);
}
if (!process.argv.includes('--force') && upToDate()) process.exit(0);

// Built beside, then moved in place: two runs at once (test projects) never see half a bundle.
const staging = `${root}/bundle.${process.pid}.tmp`;
rmSync(staging, { recursive: true, force: true });
const result = await build({
  entryPoints: entries,
  outdir: staging,
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  // ES module builds where a package ships both (a CommonJS one's import() has only a default).
  mainFields: ['module', 'main'],
  external: EXTERNAL,
  metafile: true,
  logLevel: 'warning',
  // CommonJS dependencies inside an ES module bundle still call require() for Node's modules.
  banner: {
    js: "import { createRequire as __guildhallRequire } from 'node:module'; const require = __guildhallRequire(import.meta.url);",
  },
});
writeFileSync(`${staging}/meta.json`, JSON.stringify({ entries, inputs: result.metafile.inputs }));
chmodSync(`${staging}/guildhall.js`, 0o755);
rmSync(outdir, { recursive: true, force: true });
try {
  renameSync(staging, outdir);
} catch (err) {
  // Another run put its bundle in place first: it was built from the same files.
  rmSync(staging, { recursive: true, force: true });
  if (!existsSync(output)) throw err;
}
