import { createPrivateKey, randomUUID, sign as cryptoSign, webcrypto, type KeyObject } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import { BMFF, JPEG, PNG } from '@trustnxt/c2pa-ts/asset';
import type { Signer } from '@trustnxt/c2pa-ts/cose';
import { SuperBox } from '@trustnxt/c2pa-ts/jumbf';
import {
  ActionAssertion,
  AssertionLabels,
  BMFFHashAssertion,
  ClaimVersion,
  DataHashAssertion,
  IngredientAssertion,
  ManifestStore,
  RelationshipType,
} from '@trustnxt/c2pa-ts/manifest';
import { fileTypeBrands, Mp4LayoutError, relocateChunkOffsets, topLevelBoxes } from './mp4-offsets.ts';

/**
 * C2PA content credentials (issue 17): every output image is signed where it is stored, and read back
 * for `GET /api/images/:id/credentials`. The library is TrustNXT's pure TypeScript c2pa-ts (see
 * docs/decisions.md for why not @contentauth/*); this module is the only place that knows it.
 */

x509.cryptoProvider.set(webcrypto as never);

/**
 * c2pa-ts's BMFF asset reads HEIF only (its brand check: `heic`, `mif1`), though its box handling and
 * BMFF hash are the ones an MP4 needs; these brands let it read the MP4s we store (ffmpeg writes
 * `isom`/`iso2`/`avc1`/`mp41`, vendors `mp42`/`iso5`/…). Its one gap for video, the chunk offsets the
 * inserted manifest box moves, is closed by `relocateChunkOffsets`.
 */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ']);
for (const brand of MP4_BRANDS) (BMFF as unknown as { canReadBrands: Set<string> }).canReadBrands.add(brand);
/** Still images in a BMFF file (HEIC, AVIF): an image output in one is stored as a PNG, as before. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'mif1', 'msf1', 'avif', 'avis']);

function isMp4Video(bytes: Uint8Array): boolean {
  const brands = fileTypeBrands(bytes);
  return brands.some((b) => MP4_BRANDS.has(b)) && !brands.some((b) => HEIF_BRANDS.has(b));
}

export const TRAINED_ALGORITHMIC_MEDIA =
  'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';
export const COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA =
  'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia';
export const CLAIM_GENERATOR = 'Lumina';
/** Parameters of the action that name the model and vendor (custom, namespaced as C2PA asks). */
const MODEL_PARAM = 'com.lumina.model';
const VENDOR_PARAM = 'com.lumina.vendor';

/** What an output is, for its manifest. */
export interface OutputProvenance {
  /** `created` for text-to-image, `edited` for a tool's output. */
  action: 'created' | 'edited';
  /** The model's name as people know it (e.g. "FLUX dev"), and its id. */
  model: string;
  /** The vendor's name as people know it (e.g. "fal.ai"). */
  vendor: string;
  /** The images an edit was made from (ids), recorded as ingredients. */
  ingredients: string[];
}

/** The credentials read back from a file. */
export interface ReadCredentials {
  issuer: string | null;
  signedAt: string | null;
  generator: string | null;
  actions: string[];
  digitalSourceType: string | null;
  model: string | null;
  vendor: string | null;
  ingredients: string[];
  valid: boolean;
  problems: string[];
}

export interface SigningCredentials {
  /** PEM: the signing (leaf) certificate first, then its chain up to (not necessarily including) the root. */
  certificatePem: string;
  /** PEM: the leaf's PKCS#8 private key (EC P-256). */
  privateKeyPem: string;
}

export interface ContentCredentials {
  /** Signs an image (JPEG or PNG) or an MP4 video; other formats are returned as they are (`signed: false`). */
  sign(bytes: Buffer, provenance: OutputProvenance): Promise<{ bytes: Buffer; signed: boolean }>;
  read(bytes: Buffer): Promise<ReadCredentials | null>;
}

/** The asset and its media type (c2pa-ts calls every BMFF file HEIC; ours are MP4 videos). */
function assetFor(bytes: Uint8Array) {
  if (JPEG.canRead(bytes)) return { asset: new JPEG(bytes), format: 'image/jpeg' };
  if (PNG.canRead(bytes)) return { asset: new PNG(bytes), format: 'image/png' };
  if (isMp4Video(bytes) && BMFF.canRead(bytes)) return { asset: new BMFF(bytes), format: 'video/mp4' };
  return null;
}

/**
 * Makes room for a manifest of `size` bytes. In an MP4 the box goes after `ftyp`, before the samples,
 * so the copy c2pa-ts makes has its chunk offsets moved too before anything is hashed.
 */
async function reserveManifestSpace(
  asset: JPEG | PNG | BMFF,
  original: Uint8Array,
  size: number,
): Promise<JPEG | PNG | BMFF> {
  await asset.ensureManifestSpace(size);
  if (!(asset instanceof BMFF)) return asset;
  // c2pa-ts's own buffer, moved in place: that asset is not used again.
  const reserved = await asset.getDataRange();
  relocateChunkOffsets(topLevelBoxes(original), reserved);
  const relocated = new BMFF(reserved);
  // Already the right size: c2pa-ts keeps the box it finds.
  await relocated.ensureManifestSpace(size);
  return relocated;
}

function parseChain(pem: string): x509.X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('C2PA_SIGNING_CERT holds no PEM certificate');
  return blocks.map((b) => new x509.X509Certificate(b));
}

function signingKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('C2PA_SIGNING_KEY must be an EC P-256 private key (ES256)');
  return key;
}

/**
 * ES256 with the signature as COSE requires it: r‖s, 64 bytes (IEEE P1363). c2pa-ts's own LocalSigner
 * writes ASN.1 DER, which c2pa-rs (the CAI's reader, Adobe's tools) refuses as "unsupported signature
 * format"; c2pa-ts reads both.
 */
function es256Signer(creds: SigningCredentials): Signer {
  const [leaf, ...chain] = parseChain(creds.certificatePem);
  const key = signingKey(creds.privateKeyPem);
  return {
    algorithm: -7 /* ES256 */,
    certificate: leaf!,
    chainCertificates: chain,
    sign: async (payload) =>
      new Uint8Array(cryptoSign('sha256', payload, { key, dsaEncoding: 'ieee-p1363' })),
  };
}

export function contentCredentials(creds: SigningCredentials): ContentCredentials {
  const signer = es256Signer(creds);
  return {
    async sign(bytes, provenance) {
      const original = new Uint8Array(bytes);
      const found = assetFor(original);
      if (!found) return { bytes, signed: false };
      const { format } = found;
      const store = new ManifestStore();
      const manifest = store.createManifest({
        claimVersion: ClaimVersion.V2,
        assetFormat: format,
        instanceID: `xmp:iid:${randomUUID()}`,
        defaultHashAlgorithm: 'SHA-256',
        signer,
      });
      manifest.claim!.claimGeneratorName = CLAIM_GENERATOR;
      // An edit opens its first source (the parent) and places any others (components); C2PA 2.x wants
      // every standard manifest to begin with c2pa.created or c2pa.opened.
      const ingredientRefs = provenance.ingredients.map((id, i) => {
        const ingredient = IngredientAssertion.createV3(
          i === 0 ? RelationshipType.ParentOf : RelationshipType.ComponentOf,
        );
        ingredient.title = `Lumina image ${id}`;
        // An image's sources are taken to share its format; a video's (the image it was animated
        // from) are images whose format the manifest does not know, so it says none.
        if (format.startsWith('image/')) ingredient.format = format;
        ingredient.instanceID = `lumina:image:${id}`;
        // Same-labelled assertions are told apart by an index (c2pa.ingredient.v3__1, …).
        if (i > 0) ingredient.labelSuffix = i;
        manifest.addAssertion(ingredient);
        return manifest.createAssertionReference(ingredient);
      });
      const agent = { name: `${provenance.model} on ${provenance.vendor}` };
      const made = {
        action: provenance.action === 'created' ? 'c2pa.created' : 'c2pa.edited',
        digitalSourceType:
          provenance.action === 'created'
            ? TRAINED_ALGORITHMIC_MEDIA
            : COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA,
        softwareAgent: agent,
        parameters: {
          [MODEL_PARAM]: provenance.model,
          [VENDOR_PARAM]: provenance.vendor,
          ...(ingredientRefs.length > 1 ? { ingredients: ingredientRefs.slice(1) } : {}),
        },
      };
      const actions = new ActionAssertion();
      actions.label = AssertionLabels.actionsV2;
      actions.actions = (
        provenance.action === 'edited'
          ? [
              {
                action: 'c2pa.opened',
                softwareAgent: agent,
                parameters: ingredientRefs.length ? { ingredients: ingredientRefs.slice(0, 1) } : {},
              },
              made,
            ]
          : [made]
      ) as ActionAssertion['actions'];
      manifest.addAssertion(actions);
      const hash =
        found.asset instanceof BMFF
          ? BMFFHashAssertion.createV3('jumbf manifest', 'SHA-256')
          : DataHashAssertion.create('SHA-256');
      manifest.addAssertion(hash);
      let asset;
      try {
        asset = await reserveManifestSpace(found.asset, original, store.measureSize());
      } catch (error) {
        // An MP4 laid out in a way we cannot move safely is kept playable, unsigned.
        if (error instanceof Mp4LayoutError) return { bytes, signed: false };
        throw error;
      }
      await hash.updateWithAsset(asset);
      await manifest.sign(signer);
      await asset.writeManifestJUMBF(store.getBytes());
      // The asset's own buffer (never the caller's bytes: `original` is a copy), handed on without a copy.
      const signed = await asset.getDataRange();
      return { bytes: Buffer.from(signed.buffer, signed.byteOffset, signed.byteLength), signed: true };
    },
    read: readCredentials,
  };
}

/** Reads and validates the active manifest of a JPEG, PNG or MP4; null when it has none. */
export async function readCredentials(bytes: Buffer): Promise<ReadCredentials | null> {
  const asset = assetFor(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length))?.asset;
  const jumbf = asset?.getManifestJUMBF();
  if (!asset || !jumbf) return null;
  const store = ManifestStore.read(SuperBox.fromBuffer(new Uint8Array(jumbf)));
  const manifest = store.getActiveManifest();
  if (!manifest) return null;
  const result = await store.validate(asset);
  const actions = manifest.assertions?.getActionAssertions().flatMap((a) => a.actions) ?? [];
  // The action that made the image: the one carrying the model (c2pa.created / c2pa.edited).
  const first = actions.find((a) => a.parameters?.[MODEL_PARAM] !== undefined) ?? actions[0];
  const params = (first?.parameters ?? {}) as Record<string, unknown>;
  const ingredients = (manifest.assertions?.assertions ?? [])
    .filter((a): a is IngredientAssertion => a instanceof IngredientAssertion)
    .map((a) => a.title ?? a.instanceID ?? 'an image');
  const sig = manifest.signature?.signatureData;
  const cert = sig?.certificate;
  return {
    issuer: cert ? (cert.subjectName.getField('CN')[0] ?? cert.subject) : null,
    signedAt: sig?.timestamp?.toISOString() ?? null,
    generator: manifest.claim?.claimGeneratorName ?? null,
    actions: actions.map((a) => a.action),
    digitalSourceType: first?.digitalSourceType ?? null,
    model: typeof params[MODEL_PARAM] === 'string' ? (params[MODEL_PARAM] as string) : null,
    vendor: typeof params[VENDOR_PARAM] === 'string' ? (params[VENDOR_PARAM] as string) : null,
    ingredients,
    valid: result.isValid,
    problems: result.statusEntries
      .filter((e) => !result.isValid && !/(match|validated|trusted|insideValidity)$/i.test(e.code))
      .map((e) => e.code),
  };
}

/**
 * A development signing certificate (ES256 leaf with digitalSignature + emailProtection EKU, issued by
 * a development CA), made at first start and kept in the data folder so it is stable across restarts.
 */
export async function developmentCredentials(dataDir: string): Promise<SigningCredentials> {
  const dir = path.join(dataDir, 'c2pa');
  // One file holds the chain and the key, so a reader never sees one without the other.
  const file = path.join(dir, 'dev-signing.pem');
  const parse = (text: string): SigningCredentials => ({
    certificatePem: (
      text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/g) ?? []
    ).join('\n'),
    privateKeyPem: text.match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/)?.[0] ?? '',
  });
  try {
    return parse(await readFile(file, 'utf8'));
  } catch {
    // first start: make them below
  }
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const subtle = webcrypto.subtle;
  const year = 365 * 24 * 3600 * 1000;
  const notBefore = new Date(Date.now() - 24 * 3600 * 1000);
  const caKeys = await subtle.generateKey(alg, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: 'CN=Lumina Development CA, O=Lumina (development)',
    notBefore,
    notAfter: new Date(Date.now() + 10 * year),
    keys: caKeys as never,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey as never),
    ],
  });
  const leafKeys = await subtle.generateKey(alg, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: 'CN=Lumina Development Signer, O=Lumina (development)',
    issuer: ca.subject,
    notBefore,
    notAfter: new Date(Date.now() + 5 * year),
    publicKey: leafKeys.publicKey as never,
    signingKey: caKeys.privateKey as never,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.emailProtection], false),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey as never),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
    ],
  });
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', leafKeys.privateKey as never));
  const creds = {
    certificatePem: `${leaf.toString('pem')}\n${ca.toString('pem')}\n`,
    privateKeyPem:
      `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`.replace(
        /\n\n/g,
        '\n',
      ),
  };
  await mkdir(dir, { recursive: true });
  // Written aside, then linked into place (fails if it exists): two processes starting at once (api and
  // worker) end up with the same chain, whichever made it first.
  const temp = `${file}.${process.pid}.${randomUUID()}`;
  await writeFile(temp, `${creds.certificatePem}${creds.privateKeyPem}`, { mode: 0o600 });
  try {
    await link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return parse(await readFile(file, 'utf8'));
  } finally {
    await rm(temp, { force: true });
  }
  return parse(await readFile(file, 'utf8'));
}

function randomSerial() {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
}
