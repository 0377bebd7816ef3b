import type { KeyObject } from 'node:crypto';

/** Every spelling of a private key that could leak: its PEM, its lines, its DER and its secret scalar, as text and as bytes. */
export function keyForms(key: KeyObject): Buffer[] {
  const pemText = String(key.export({ type: 'pkcs8', format: 'pem' }));
  const body = pemText.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const der = key.export({ type: 'pkcs8', format: 'der' });
  const scalar = Buffer.from(String(key.export({ format: 'jwk' }).d), 'base64url');
  const texts = [
    body,
    ...(body.match(/.{64}/g) ?? []),
    der.toString('hex'),
    der.toString('base64url'),
    scalar.toString('hex'),
    scalar.toString('base64'),
    scalar.toString('base64url'),
  ];
  return [...texts.map((t) => Buffer.from(t)), der, scalar];
}
