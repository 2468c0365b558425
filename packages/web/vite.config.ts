import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The production build is served by the Guildhall server (packages/server, http/webApp.ts) at `/`
 * and `/developers`. `npm run dev -w packages/web` proxies the API and the gateway to a server on
 * 127.0.0.1:8080 (`npm start`), for work on the pages with hot reload.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Scripts and styles only as files: the server's CSP allows nothing inline.
    assetsInlineLimit: 0,
    sourcemap: true,
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/gateway': { target: 'ws://127.0.0.1:8080', ws: true },
      '/attachments': 'http://127.0.0.1:8080',
      '/avatars': 'http://127.0.0.1:8080',
      '/icons': 'http://127.0.0.1:8080',
      '/app-icons': 'http://127.0.0.1:8080',
      '/app-assets': 'http://127.0.0.1:8080',
    },
  },
});
