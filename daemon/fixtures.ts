// Fixture files (instruments, holidays, fees, news...) live in <repo>/fixtures and are read once.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

function findFixturesDir(): string {
  // Works from daemon/*.ts (tests, tsx) and from dist/*.js (the built daemon): walk up to fixtures/.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'fixtures');
    try {
      readFileSync(join(candidate, 'README.md'));
      return candidate;
    } catch {
      dir = dirname(dir);
    }
  }
  throw new Error('fixtures/ directory not found');
}

const cache = new Map<string, unknown>();
let dir: string | undefined;

export function readFixture<T>(name: string): T {
  if (!cache.has(name)) {
    dir ??= findFixturesDir();
    cache.set(name, JSON.parse(readFileSync(join(dir, name), 'utf8')));
  }
  return cache.get(name) as T;
}
