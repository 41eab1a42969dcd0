import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

/** Authenticator-data flags (WebAuthn §6.1): user present, user verified, attested credential data. */
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/**
 * A software passkey for API tests: an ES256 (P-256) key pair made with node:crypto, the
 * authenticator data and the `none` attestation built by hand (CBOR through @simplewebauthn's own
 * encoder), answering as `@simplewebauthn/browser` would (base64url JSON). `counter` grows with
 * each assertion unless a test sets it.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  counter = 0;
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  constructor(
    readonly origin = 'http://localhost',
    readonly rpId = 'localhost',
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The COSE_Key of the public key (kty EC2, alg ES256, crv P-256, x, y). */
  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
      ]),
    );
  }

  private authData(options: { isAttested: boolean; isUserVerified: boolean; rpId: string }): Buffer {
    const flags = FLAG_UP | (options.isUserVerified ? FLAG_UV : 0) | (options.isAttested ? FLAG_AT : 0);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const parts = [sha256(options.rpId), Buffer.from([flags]), counter];
    if (options.isAttested) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), idLength, this.credentialId, Buffer.from(this.cosePublicKey()));
    }
    return Buffer.concat(parts);
  }

  /** Answer creation options (`startRegistration()`'s result) for `challenge`. */
  register(challenge: string, overrides: { isUserVerified?: boolean; origin?: string } = {}) {
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    });
    const authData = this.authData({
      isAttested: true,
      isUserVerified: overrides.isUserVerified ?? true,
      rpId: this.rpId,
    });
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as Parameters<typeof isoCBOR.encode>[0],
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /**
   * Answer request options (`startAuthentication()`'s result) for `challenge`: the counter moves on
   * by one unless `counter` is given.
   */
  assert(
    challenge: string,
    overrides: { counter?: number; isUserVerified?: boolean; origin?: string; userHandle?: string } = {},
  ) {
    this.counter = overrides.counter ?? this.counter + 1;
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }),
    );
    const authData = this.authData({
      isAttested: false,
      isUserVerified: overrides.isUserVerified ?? true,
      rpId: this.rpId,
    });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(overrides.userHandle ? { userHandle: overrides.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }
}
