// Builds dist/ with esbuild: one bundle for the daemon and one for the CLI (code-split, so commands
// that need Ink load it lazily). node_modules stay external. Type checking is `npm run typecheck`.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  jsx: 'automatic',
};

await build({ ...common, entryPoints: { 'daemon/main': 'daemon/main.ts' }, outdir: 'dist' });
await build({ ...common, entryPoints: { 'cli/main': 'cli/main.ts' }, outdir: 'dist', splitting: true, chunkNames: 'cli/chunks/[name]-[hash]' });
