// Before a command that may ask questions runs: is the sandbox it names the one that answers? The
// check every request makes (cli/client/http.ts, verifySandbox) would come only after the questions;
// here it comes first, so that nobody answers eight questions to be told the sandbox is not there.
import type { Command } from 'commander';
import { resolveProfile, type GlobalOptions } from './context.js';
import { canPrompt } from './interactive.js';

/** Commands that do not talk to the running sandbox of the home through its profile. */
const OWN_CONNECTION =
  /^(sandbox (start|stop|status|logs|env|list|export|import|journal|replay)|scenario|completion)\b/;

function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Verifies the sandbox of an interactive command before it runs (a script's command checks at its first request). */
export async function preflight(action: Command): Promise<void> {
  const g = action.optsWithGlobals() as GlobalOptions;
  if (OWN_CONNECTION.test(pathOf(action)) || !canPrompt(Boolean(g.json))) return;
  // the HTTP client loads only for a command that asks questions, not before every command
  const { verifySandbox } = await import('./client/http.js');
  await verifySandbox(resolveProfile(g));
}
