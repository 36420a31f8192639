// A MAC over a stored row under a key derived from the key-encryption key (docs/reliability.md,
// "Session and step-up rows need the key"). Rows that grant access by being present (a console
// session and its step-up, a passkey, an enrolment code, an operator key's step-up window) carry one: a row inserted or
// edited by whoever can write svc.db but cannot read kek.key does not verify, and is treated as absent. The key of each
// table is HMAC(KEK, label), so a MAC of one table never verifies as another's.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type MacField = string | number | null;

/** The tables whose rows carry a MAC, each with its own derived key. */
export type MacTable = 'console_sessions' | 'console_passkeys' | 'console_enrolments' | 'operator_step_up_windows';

function tableKey(kek: Buffer, table: MacTable): Buffer {
  return createHmac('sha256', kek).update(`svc row mac v1:${table}`).digest();
}

/** The row's MAC (hex): the fields in a fixed order, JSON-encoded, under the table's key. */
export function rowMac(kek: Buffer, table: MacTable, fields: readonly MacField[]): string {
  return createHmac('sha256', tableKey(kek, table)).update(JSON.stringify(fields)).digest('hex');
}

/** True when `mac` is the MAC of these fields under this KEK; a missing MAC never verifies. */
export function rowMacOk(
  kek: Buffer,
  table: MacTable,
  fields: readonly MacField[],
  mac: string | null | undefined,
): boolean {
  // a stored value that is not 64 hex digits never verifies (and never reaches timingSafeEqual unequal in length)
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(rowMac(kek, table, fields), 'hex'), Buffer.from(mac, 'hex'));
}
