import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const SERVER = 'http://localhost:3000';

/** node_modules that go into the shared vendor chunk: everything but the lazily loaded sign-in SDK. */
const SHARED_VENDOR =
  /node_modules[\\/](?!(supertokens-[^\\/]+|intl-tel-input|react-qr-code|qr\.js|@simplewebauthn|browser-tabs-lock|prop-types)[\\/])/;

/**
 * Ships the repository README with the build as /README.md: the operator's set-up hint (provider keys)
 * links to its "AI providers" section on the server they run, with no outside address to keep right.
 */
const shipReadme = (): Plugin => ({
  name: 'lumina-ship-readme',
  apply: 'build',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: 'README.md',
      source: readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8'),
    });
  },
});

export default defineConfig({
  plugins: [react(), tailwindcss(), shipReadme()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // The vendor chunk (react, router, react-query, i18next, zod) is one deliberate long-cached file.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Third-party code changes rarely: one long-cached vendor chunk, app code separate. The sign-in
        // SDK (SuperTokens and what only it uses) stays out of it so that it loads only when needed.
        codeSplitting: { groups: [{ name: 'vendor', test: SHARED_VENDOR }] },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: SERVER, changeOrigin: false },
      '/auth': { target: SERVER, changeOrigin: false },
    },
  },
});
