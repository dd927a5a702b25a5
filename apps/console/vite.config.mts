import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is served by the gateway at `/` (`dist/apps/console`); its assets are content-hashed under /assets.
// `nx serve console` runs Vite's dev server against a running gateway (GATEWAY_URL, default the dev launcher's).
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  resolve: {
    // The one lib entry the console runs (a list of names, browser-safe); every other @platform import is type-only.
    alias: { '@platform/contracts/run-fields': path.resolve(import.meta.dirname, '../../libs/contracts/src/run-fields.ts') },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, '../../dist/apps/console'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    chunkSizeWarningLimit: 2048,
  },
  server: {
    proxy: Object.fromEntries(['/api', '/v2', '/deployments'].map((prefix) => [prefix, { target: gateway, changeOrigin: false }])),
  },
});
