import { describe, expect, it } from 'vitest';
import { maskEmail, maskPhone } from './masking.ts';

describe('masking helpers (client-area spec §9)', () => {
  it('shows the first 2 and last 2 characters of the local part, then ****', () => {
    expect(maskEmail('johnsmith@example.com')).toBe('joth****@example.com');
    expect(maskEmail('abcde@x.io')).toBe('abde****@x.io');
  });
  it('leaves local parts of 4 characters or fewer unchanged', () => {
    expect(maskEmail('abcd@x.io')).toBe('abcd@x.io');
    expect(maskEmail('a@x.io')).toBe('a@x.io');
  });
  it('masks a phone to ****** plus its last 2 digits', () => {
    expect(maskPhone('+44 20 7946 0103')).toBe('******03');
    expect(maskPhone('***already')).toBe('***already');
    expect(maskPhone('')).toBe('');
  });
});
