// Builds dist/ once before any test file runs: CLI tests spawn the real `svc` binary.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
