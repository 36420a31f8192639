// The WebAuthn ceremonies of the console (@simplewebauthn/server): registering an identity's passkey
// with a one-time enrolment code, and asserting one to sign in or to step up. Relying party: localhost
// (the console is opened at http://localhost:<port>/console); expected origin: that page's origin.
// Every challenge is issued for one purpose, kept for two minutes and used once (challenges.ts keeps
// them in the database; the verifiers here only check one through a callback). User verification is
// required; a signature counter that stays 0 (synced passkeys) is accepted, and a non-zero counter
// must grow.
import { randomBytes } from 'node:crypto';
import type {
  AuthenticatorTransport,
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { IdentityRow, PasskeyRow } from '../backoffice/passkeys.js';

export const RP_ID = 'localhost';
const RP_NAME = 'svc sandbox console';

// Loaded on the first ceremony, not at start: with the X.509 and ASN.1 libraries under it, it is about a sixth
// of the daemon's code, and most sandboxes never see a passkey (docs/architecture.md, "Start-up").
const webauthn = () => import('@simplewebauthn/server');

const transportsOf = (row: PasskeyRow): AuthenticatorTransport[] =>
  JSON.parse(row.transports) as AuthenticatorTransport[];

export async function registrationOptions(
  who: IdentityRow,
  existing: PasskeyRow[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return (await webauthn()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: RP_ID,
    userName: who.name,
    userDisplayName: `${who.name} (${who.role})`,
    userID: new TextEncoder().encode(who.id),
    challenge: randomBytes(32),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

export interface VerifiedPasskey {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

/** A registration's new passkey, or null when it does not verify. */
export async function verifyRegistration(
  response: RegistrationResponseJSON,
  origin: string,
  challengeOk: (c: string) => boolean,
): Promise<VerifiedPasskey | null> {
  try {
    const r = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: challengeOk,
      expectedOrigin: origin,
      expectedRPID: RP_ID,
      requireUserVerification: true,
    });
    if (!r.verified) return null;
    const c = r.registrationInfo.credential;
    return {
      credentialId: c.id,
      publicKey: c.publicKey,
      counter: c.counter,
      transports: c.transports ?? response.response.transports ?? [],
    };
  } catch {
    return null; // a malformed or mismatched response is a refusal, not a fault
  }
}

export async function assertionOptions(passkeys: PasskeyRow[] | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return (await webauthn()).generateAuthenticationOptions({
    rpID: RP_ID,
    challenge: randomBytes(32),
    userVerification: 'required',
    allowCredentials: passkeys?.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
  });
}

/** The assertion's new counter, or null when it does not verify against the stored passkey. */
export async function verifyAssertion(
  response: AuthenticationResponseJSON,
  passkey: PasskeyRow,
  origin: string,
  challengeOk: (c: string) => boolean,
): Promise<number | null> {
  try {
    const r = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeOk,
      expectedOrigin: origin,
      expectedRPID: RP_ID,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: passkey.counter,
        transports: transportsOf(passkey),
      },
    });
    return r.verified ? r.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
