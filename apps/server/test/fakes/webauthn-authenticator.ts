import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey authenticator for tests: ES256 keys from node:crypto, attestation `none`, and
 * assertions built as a platform authenticator builds them (authenticatorData, clientDataJSON, a DER
 * ECDSA signature over authenticatorData ‖ sha256(clientDataJSON)). What it sends is the JSON the
 * browser hands to the SDK (`RegistrationResponseJSON` / `AuthenticationResponseJSON`).
 */
export class SoftwareAuthenticator {
  private readonly credentials = new Map<
    string,
    { privateKey: KeyObject; counter: number; rpId: string; userHandle: string }
  >();

  constructor(private readonly origin: string) {}

  /** The ids of the credentials this authenticator holds (base64url). */
  get ids(): string[] {
    return [...this.credentials.keys()];
  }

  /** Answers `navigator.credentials.create()` for registration options from the server. */
  register(
    options: { challenge: string; rp: { id: string }; user: { id: string } },
    tamper: { challenge?: string; origin?: string; rpId?: string } = {},
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    const credentialId = randomBytes(16);
    const rpId = tamper.rpId ?? options.rp.id;
    const authData = Buffer.concat([
      sha256(Buffer.from(rpId)),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      uint32(0),
      Buffer.alloc(16), // AAGUID
      Buffer.from([0, credentialId.length]),
      credentialId,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientDataJSON = this.clientData(
      'webauthn.create',
      tamper.challenge ?? options.challenge,
      tamper.origin,
    );
    const id = credentialId.toString('base64url');
    this.credentials.set(id, { privateKey, counter: 0, rpId, userHandle: options.user.id });
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /**
   * Answers `navigator.credentials.get()` with one of its credentials (the first unless named). The
   * signature counter goes up by one each time unless `counter` sets it (a cloned authenticator).
   */
  authenticate(
    options: { challenge: string; rpId?: string },
    use: { credentialId?: string; counter?: number; challenge?: string } = {},
  ) {
    const id = use.credentialId ?? this.ids[0];
    const credential = id ? this.credentials.get(id) : undefined;
    if (!id || !credential) throw new Error('the authenticator holds no such credential');
    credential.counter = use.counter ?? credential.counter + 1;
    const authenticatorData = Buffer.concat([
      sha256(Buffer.from(options.rpId ?? credential.rpId)),
      Buffer.from([0x05]), // user present, user verified
      uint32(credential.counter),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', use.challenge ?? options.challenge);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, 'base64url'))]),
      credential.privateKey,
    );
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
