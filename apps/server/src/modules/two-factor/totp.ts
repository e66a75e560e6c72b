import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { sha256 } from '../../lib/crypto.ts';

/** RFC 6238 with the values every authenticator app understands: SHA-1, 6 digits, 30 seconds. */
const TOTP_OPTIONS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** One step either side of now, for clocks a little off. */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

/** A new random secret (160 bits, as RFC 4226 recommends), base32 as authenticator apps take it. */
export const newSecret = (): string => new OTPAuth.Secret({ size: 20 }).base32;

const totpOf = (secret: string, issuer = '', label = '') =>
  new OTPAuth.TOTP({ ...TOTP_OPTIONS, issuer, label, secret: OTPAuth.Secret.fromBase32(secret) });

/** The time step the code belongs to when it is valid now (±1 step), or null. */
export function acceptedStep(secret: string, code: string, now = Date.now()): number | null {
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/** The secret, its otpauth:// link (issuer = app name, label = email) and the link as a QR image. */
export async function setupPayload(secret: string, issuer: string, email: string) {
  const otpauthUrl = totpOf(secret, issuer, email).toString();
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
  return { secret, otpauthUrl, qrDataUrl };
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten fresh single-use codes (xxxxx-xxxxx) and the hashes kept of them. */
export function newRecoveryCodes(): { codes: string[]; stored: Array<{ hash: string; usedAt: string | null }> } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, stored: codes.map((c) => ({ hash: hashRecoveryCode(c), usedAt: null })) };
}

/** Recovery codes are compared as typed without case, spaces or dashes. */
export const hashRecoveryCode = (code: string): string => sha256(code.replace(/[\s-]+/g, '').toLowerCase());
