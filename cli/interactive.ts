// When the CLI may ask questions: a TTY on both ends, no CI, no --json (docs/cli.md, "Conventions").
// The prompt library is loaded only on that path, so scripted runs never pay for it.
export function canPrompt(json: boolean): boolean {
  const ci = process.env.CI;
  const inCi = ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !inCi && !json;
}

export function loadPrompts() {
  return import('@inquirer/prompts');
}

/** A flag value that must be present when nothing can be asked. */
export function requireFlags(values: Record<string, unknown>, onMissing: (flags: string[]) => never): void {
  const missing = Object.entries(values)
    .filter(([, v]) => v === undefined || v === '')
    .map(([flag]) => flag);
  if (missing.length > 0) onMissing(missing);
}
