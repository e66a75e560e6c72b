import * as OTPAuth from 'otpauth';

/** What an authenticator app shows `steps` periods from now (the server accepts one step either side). */
export const codeAt = (secret: string, steps = 0) =>
  OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: Date.now() + steps * 30_000,
  });
