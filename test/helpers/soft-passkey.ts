// A software passkey for tests without a browser: a real P-256 key that answers the console's WebAuthn
// ceremonies as an authenticator would (attestation "none", user present and verified), with a
// signature counter the test chooses; 0 is what synced passkeys always send.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64u = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

type Cbor = number | string | Buffer | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

/** Just enough CBOR for an attestation object and a COSE key. */
function cbor(v: Cbor): Buffer {
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (Buffer.isBuffer(v)) return Buffer.concat([head(2, v.length), v]);
  return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
}

export interface SoftPasskey {
  credentialId: string;
  /** The registration response for the options of POST /console/api/enroll/options. */
  register(options: { challenge: string; user: { id: string } }, origin: string): unknown;
  /** An assertion for a challenge, carrying this signature counter. */
  assert(challenge: string, origin: string, counter: number): unknown;
}

export function softPasskey(rpId = 'localhost'): SoftPasskey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credId = randomBytes(32);
  const credentialId = b64u(credId);
  const rpIdHash = sha256(rpId);
  let userHandle = '';
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const counterBytes = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  return {
    credentialId,
    register(options, origin) {
      userHandle = options.user.id;
      const cose = cbor(
        new Map<Cbor, Cbor>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const idLen = Buffer.alloc(2);
      idLen.writeUInt16BE(credId.length);
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([0x45]),
        counterBytes(0),
        Buffer.alloc(16),
        idLen,
        credId,
        cose,
      ]);
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64u(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64u(attestationObject),
          transports: ['internal'],
        },
      };
    },
    assert(challenge, origin, counter) {
      const cd = clientData('webauthn.get', challenge, origin);
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x05]), counterBytes(counter)]);
      const signature = sign('sha256', Buffer.concat([authData, sha256(cd)]), privateKey as KeyObject);
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64u(cd),
          authenticatorData: b64u(authData),
          signature: b64u(signature),
          userHandle,
        },
      };
    },
  };
}
