// /openapi.json is good enough to generate a working client: openapi-typescript (default options)
// generates types from the live document, the strict client of the tenant journey in
// ./tenant-journey.ts type-checks against them without a cast, and then runs against a real daemon
// listening on a port (openapi-fetch over HTTP). A contract change that breaks generated clients fails
// here. The committed copy the project's own tsc reads is the client library's, client/src/generated/api.ts
// (./generated-types.ts); its types must equal what the document generates today (SVC_UPDATE_CONTRACT=1
// rewrites it).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { nationalId, SAMPLE_BACK, SAMPLE_FRONT } from '../helpers/onboarding.js';
import { committedTypesAre, GENERATED, generateTypes, STALE } from './generated-types.js';
import { runTenantJourney } from './tenant-journey.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLIENT = resolve(HERE, 'tenant-journey.ts');

let t: TestApp;
let baseUrl: string;
let generated: string;

beforeAll(async () => {
  t = await makeApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const doc: unknown = await (await fetch(`${baseUrl}/openapi.json`)).json();
  generated = await generateTypes(doc);
});
afterAll(async () => t.close());

/** Type errors of the client compiled with test/contract/tsconfig.json, against `types` as the committed file. */
function typeErrors(types: string): string[] {
  const configFile = resolve(HERE, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, HERE);
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) =>
    resolve(fileName) === GENERATED
      ? ts.createSourceFile(fileName, types, language)
      : getSourceFile(fileName, language, onError, shouldCreate);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/** Casts, non-null assertions and `any` in the client's source: a client that needs them is not typed by the document.
 * */
function escapes(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const isConst = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.getText() === 'const';
    if (
      (ts.isAsExpression(node) && !isConst) ||
      ts.isTypeAssertionExpression(node) ||
      ts.isNonNullExpression(node) ||
      node.kind === ts.SyntaxKind.AnyKeyword
    ) {
      found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('a client generated from /openapi.json', () => {
  it('the committed types are what the document generates today (comments aside)', () => {
    expect(committedTypesAre(generated), STALE).toBe(true);
  });

  it('the strict client of the tenant journey compiles against freshly generated types, without a cast', () => {
    expect(escapes(CLIENT)).toEqual([]);
    expect(typeErrors(generated)).toEqual([]);
  });

  it('the check is live: a contract change that breaks the client fails it', () => {
    const renamed = generated.replace(/\bapplication_id: string;/g, 'kyc_application_id: string;');
    expect(renamed).not.toBe(generated);
    expect(typeErrors(renamed).join('\n')).toContain("Property 'application_id' does not exist");
  });

  it('runs the tenant journey against a real daemon: KYC, suitability, deposit, clock, order, balances, contract note', async () => {
    const { nationalId: id, dateOfBirth } = nationalId();
    const r = await runTenantJourney({
      baseUrl,
      apiKey: t.creds.tenant.api_key,
      signingSecret: t.creds.tenant.signing_secret,
      adminKey: t.creds.operators.admin_key,
      idFront: SAMPLE_FRONT,
      idBack: SAMPLE_BACK,
      nationalId: id,
      dateOfBirth,
    });
    expect(r.order).toMatchObject({
      investor_id: r.investorId,
      symbol: 'COMI',
      side: 'buy',
      status: 'filled',
      filled_qty: 10,
    });
    expect(r.contractNote).toMatchObject({ order_id: r.order.order_id, filled_qty: 10, net_direction: 'debit' });
    expect(r.contractNote.fills.reduce((n, f) => n + f.qty, 0)).toBe(10);
    expect(r.balances.securities.find((p) => p.symbol === 'COMI')).toMatchObject({ unsettled: 10 });
    const cash = r.balances.cash.find((p) => p.asset === 'cash:EGP');
    expect(cash?.settled).toBe(50_000_000_000 - r.contractNote.net_consideration_micros);
  });
});
