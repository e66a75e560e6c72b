import { describe, expect, it } from 'vitest';
import { ChangePasswordRequest, SignupRequest } from './auth.ts';
import { StaffUserCreateRequest, StaffUserUpdateRequest } from './users.ts';
import { isAdult } from './common.ts';

const valid = {
  fullName: 'Jo Doe',
  email: 'Jo@Example.com',
  password: 'abcdefgh',
  passwordConfirmation: 'abcdefgh',
  phone: '+1 555 0100',
  birthDate: '1990-01-01',
  country: 'Canada',
  city: 'Toronto',
  address: '1 King St',
  postalCode: 'M5H',
  currency: 'USD',
};
const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('sign-up rules (client-area spec §5)', () => {
  it('accepts a complete form without promo code and lower-cases the email', () => {
    const r = SignupRequest.safeParse(valid);
    expect(r.success).toBe(true);
    expect(r.data?.email).toBe('jo@example.com');
  });
  it('requires every field but promoCode', () => {
    const m = messages(SignupRequest.safeParse({}));
    for (const f of [
      'fullName',
      'email',
      'password',
      'phone',
      'birthDate',
      'country',
      'city',
      'address',
      'postalCode',
      'currency',
    ])
      expect(m[f], f).toBeTruthy();
    expect(m.promoCode).toBeUndefined();
  });
  it('needs 8 characters and a matching confirmation', () => {
    expect(
      messages(SignupRequest.safeParse({ ...valid, password: 'short', passwordConfirmation: 'short' })).password,
    ).toBe('Password must be at least 8 characters');
    expect(messages(SignupRequest.safeParse({ ...valid, passwordConfirmation: 'other123' })).passwordConfirmation).toBe(
      'Passwords must match',
    );
  });
  it('refuses unknown countries and minors', () => {
    expect(messages(SignupRequest.safeParse({ ...valid, country: 'Atlantis' })).country).toBe('Unknown country');
    expect(isAdult('2010-01-01', 18, new Date('2026-11-21'))).toBe(false);
    expect(isAdult('2008-11-21', 18, new Date('2026-11-21'))).toBe(true);
  });
});

describe('password change and staff user rules', () => {
  it('requires the current password and 8 characters for the new one', () => {
    const m = messages(ChangePasswordRequest.safeParse({ currentPassword: '', newPassword: 'abc' }));
    expect(m.currentPassword).toBe('Current password is required');
    expect(m.newPassword).toBe('New password must be at least 8 characters');
  });
  it('uses the back-office messages and parses the IP whitelist', () => {
    const m = messages(StaffUserCreateRequest.safeParse({ fullName: '', email: 'x', password: '1' }));
    expect(m.fullName).toBe('Full name is required');
    expect(m.email).toBe('Invalid email');
    expect(m.password).toBe('Password must be at least 8 characters');
    expect(m.isEmailVerified).toBe('Email verification is required');
    expect(m.isActive).toBe('Active status is required');
    const ok = StaffUserUpdateRequest.parse({
      fullName: 'A',
      email: 'a@b.co',
      password: '',
      roleId: 2,
      whitelist: ' 10.0.0.1, ::1 ',
      isEmailVerified: true,
      isActive: true,
    });
    expect(ok.whitelist).toEqual(['10.0.0.1', '::1']);
    expect(ok.password).toBeUndefined();
    expect(
      StaffUserUpdateRequest.safeParse({
        fullName: 'A',
        email: 'a@b.co',
        whitelist: '10.0.0',
        isEmailVerified: true,
        isActive: true,
      }).success,
    ).toBe(false);
  });
});

describe('birth date', () => {
  const base = {
    fullName: 'A B',
    email: 'a@b.test',
    password: 'Password1!',
    passwordConfirmation: 'Password1!',
    phone: '+1 555 0100',
    country: 'Canada',
    city: 'Toronto',
    address: '1 King St',
    postalCode: 'M5H',
    currency: 'USD',
  };
  const messageFor = (birthDate: string) => {
    const r = SignupRequest.safeParse({ ...base, birthDate });
    return r.success ? null : r.error.issues.find((i) => i.path[0] === 'birthDate')?.message;
  };
  it('refuses impossible dates instead of rolling them over, asks for a missing one, and refuses minors', () => {
    expect(messageFor('1992-13-45')).toBe('Enter a real date as YYYY-MM-DD');
    expect(messageFor('2001-02-29')).toBe('Enter a real date as YYYY-MM-DD');
    expect(messageFor('')).toBe('Birth date is required');
    expect(messageFor('2099-01-01')).toBe('The date cannot be in the future');
    expect(messageFor(new Date(Date.now() - 10 * 365 * 864e5).toISOString().slice(0, 10))).toBe(
      'You must be at least 18 years old to open an account',
    );
    expect(messageFor('2000-02-29')).toBeNull();
  });
});
