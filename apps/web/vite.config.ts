import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const SERVER = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
        // Third-party code changes rarely: one long-cached vendor chunk, app code separate.
        codeSplitting: { groups: [{ name: 'vendor', test: /node_modules/ }] },
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
