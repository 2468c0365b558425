// `npm pack` of @guildhall/server: `prepack` copies the web client and portal build
// (packages/web/dist) into the package's `web/` folder, which the installed server serves;
// `postpack` removes it again, so the repository's server keeps serving packages/web/dist.
// Usage: node scripts/packWeb.js copy|remove
import { cpSync, existsSync, rmSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../web/dist', import.meta.url));
const target = fileURLToPath(new URL('../web', import.meta.url));

if (process.argv[2] === 'remove') {
  rmSync(target, { recursive: true, force: true });
} else {
  if (!existsSync(`${source}/index.html`)) {
    process.stderr.write('packWeb: packages/web/dist has no build; run `npm run build` first.\n');
    process.exit(1);
  }
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true });
}
