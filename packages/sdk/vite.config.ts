import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

/**
 * The one-file browser bundle (`dist/bundle/guildhall-social-sdk.js`, an ES module) of the
 * browser entry point, for a page that loads the SDK with a plain `<script type="module">`.
 * A Node-only module reached from the browser entry fails the build instead of being stubbed.
 */
const NODE_ONLY = new Set(['ws', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

export default defineConfig({
  build: {
    outDir: 'dist/bundle',
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    lib: { entry: 'src/browser.ts', formats: ['es'], fileName: () => 'guildhall-social-sdk.js' },
    rollupOptions: {
      plugins: [
        {
          name: 'no-node-modules',
          resolveId(id) {
            if (NODE_ONLY.has(id)) {
              throw new Error(`The browser bundle may not import the Node-only module "${id}".`);
            }
            return null;
          },
        },
      ],
    },
  },
});
