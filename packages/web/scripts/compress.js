/**
 * After `vite build`: writes a Brotli (.br) and a gzip (.gz) copy next to each text file of the
 * build, which the server sends to browsers that accept them (@fastify/static `preCompressed`,
 * packages/server/src/http/webApp.ts) instead of compressing on every request. Source maps are
 * left as they are: only developer tools fetch them.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const TEXT = /\.(?:html|js|css|svg|json|txt)$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (TEXT.test(entry.name)) yield path;
  }
}

let before = 0;
let after = 0;
for (const path of files(DIST)) {
  const bytes = readFileSync(path);
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  before += bytes.length;
  after += br.length;
}
process.stdout.write(
  `compressed the build: ${(before / 1024).toFixed(0)} KiB of text, ${(after / 1024).toFixed(0)} KiB as Brotli\n`,
);
