import { describe, expect, it } from 'vitest';
import { TwoFactorLoginRequest, TwoFactorPolicy, recoveryCode, totpCode } from './two-factor.ts';

describe('two-factor schemas', () => {
  it('takes 6 digits, spaces ignored', () => {
    expect(totpCode.parse(' 123 456 ')).toBe('123456');
    for (const bad of ['12345', '1234567', 'abcdef', '', '１２３４５６'])
      expect(totpCode.safeParse(bad).success).toBe(false);
  });

  it('normalises recovery codes', () => {
    expect(recoveryCode.parse('ABCDE-FGHJK')).toBe('abcdefghjk');
    expect(recoveryCode.safeParse('abc').success).toBe(false);
  });

  it('wants exactly one of code and recovery code', () => {
    expect(TwoFactorLoginRequest.safeParse({ challenge: 'x', code: '123456' }).success).toBe(true);
    expect(TwoFactorLoginRequest.safeParse({ challenge: 'x', recoveryCode: 'abcde-fghjk' }).success).toBe(true);
    expect(TwoFactorLoginRequest.safeParse({ challenge: 'x' }).success).toBe(false);
    expect(
      TwoFactorLoginRequest.safeParse({ challenge: 'x', code: '123456', recoveryCode: 'abcde-fghjk' }).success,
    ).toBe(false);
  });

  it('accepts staff roles only, each once, sorted', () => {
    expect(TwoFactorPolicy.parse({ roles: [6, 2, 2] })).toEqual({ roles: [2, 6] });
    expect(TwoFactorPolicy.safeParse({ roles: [3] }).success).toBe(false);
  });
});
