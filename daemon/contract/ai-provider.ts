// The assistant's provider as people write it (--ai, the scenario header, the reset body): `none`,
// `registry` or `openai:<base_url>`. No zod here: the CLI's entry checks the flag without loading
// the schemas (docs/assistant.md, "Providers").

export const AI_PROVIDER_PATTERN = /^(none|registry|openai:https?:\/\/\S+)$/;
export type AiProvider = 'none' | 'registry' | `openai:${string}`;

export const AI_PROVIDER_USAGE = 'none, registry or openai:<base_url> (an http or https URL)';

/**
 * A --ai value as a provider, or null when it is not one: `none`, `registry`, or `openai:` followed by
 * an absolute http or https URL without credentials in it (the URL shows in the sandbox state), a
 * query or a fragment (the chat path is appended to it).
 */
export function parseAiProvider(value: string): AiProvider | null {
  if (value === 'none' || value === 'registry') return value;
  if (value.length > 2048 || !AI_PROVIDER_PATTERN.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value.slice('openai:'.length));
  } catch {
    return null;
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !url.hostname ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
  )
    return null;
  return value as AiProvider;
}

/**
 * The environment variable that carries NODE_EXTRA_CA_CERTS to a daemon svc starts: the daemon reads the file
 * only for an openai provider's first https request (daemon/assistant/outbound.ts), not at every start.
 */
export const EXTRA_CA_ENV = 'SVC_EXTRA_CA_CERTS';
