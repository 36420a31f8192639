// The types openapi-typescript generates from /openapi.json, committed once: client/src/generated/api.ts.
// The client library is typed by them, and the strict client of ./tenant-journey.ts compiles against them.
// test/client/contract.test.ts and ./generated-client.test.ts each check that the file is what today's
// document generates, and SVC_UPDATE_CONTRACT=1 makes either of them rewrite it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

export const GENERATED = fileURLToPath(new URL('../../client/src/generated/api.ts', import.meta.url));
export const STALE =
  'client/src/generated/api.ts is stale: run SVC_UPDATE_CONTRACT=1 npx vitest run ' +
  'test/contract/generated-client.test.ts test/client/contract.test.ts';

/** The types openapi-typescript (default options) generates from the document, with its header. */
export async function generateTypes(doc: unknown): Promise<string> {
  return COMMENT_HEADER + astToString(await openapiTS(JSON.parse(JSON.stringify(doc)), { silent: true }));
}

/** The generated types without their doc comments: a description or a format changes no type. */
export function typesOnly(source: string): string {
  return source
    .replace(/\/\*\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');
}

/** Whether the committed file holds these types (comments aside); with SVC_UPDATE_CONTRACT=1 it is rewritten first. */
export function committedTypesAre(fresh: string): boolean {
  if (process.env.SVC_UPDATE_CONTRACT === '1' && readFileSync(GENERATED, 'utf8') !== fresh)
    writeFileSync(GENERATED, fresh);
  return typesOnly(readFileSync(GENERATED, 'utf8')) === typesOnly(fresh);
}
