import { defineConfig } from 'vitest/config';

// During `npm run dev` the API and WebSockets go to a locally running
// `chessplayx serve` (default port 8080, override with CHESSPLAYX_SERVER).
const server = process.env.CHESSPLAYX_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 600 },
  server: {
    proxy: {
      '/api': server,
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
    },
  },
  test: { include: ['tests/**/*.test.ts'], environment: 'node' },
});
