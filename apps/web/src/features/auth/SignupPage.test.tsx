import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi, renderScreen } from '../../test/render.tsx';
import { brandingFixture } from '../../test/fixtures.ts';
import { SignupPage, validateSignup, type SignupValues } from './SignupPage.tsx';

const valid: SignupValues = {
  fullName: 'Jane Doe',
  email: 'jane@example.com',
  password: 'Secret123!',
  passwordConfirmation: 'Secret123!',
  phone: '+44 20 7946 0000',
  birthDate: '1990-01-01',
  country: 'France',
  city: 'Paris',
  address: '1 Rue de Rivoli',
  postalCode: '75001',
  promoCode: '',
  currency: 'USD',
};

function api() {
  return mockApi((_method, path) => {
    if (path === '/settings/branding') return { body: brandingFixture() };
    if (path === '/countries') return { body: [{ name: { common: 'France' } }, { name: { common: 'Austria' } }] };
    return undefined;
  });
}

describe('validateSignup', () => {
  it('accepts a complete form, promo code left out', () => {
    expect(validateSignup(valid)).toEqual({});
  });

  it('says "Passwords must match" even while other fields are still empty', () => {
    const errors = validateSignup({ ...valid, fullName: '', passwordConfirmation: 'Secret123?' });
    expect(errors.passwordConfirmation).toBe('Passwords must match');
    expect(errors.fullName).toBe('Full name is required');
  });

  it('asks for a missing birth date, refuses impossible dates and minors', () => {
    expect(validateSignup({ ...valid, birthDate: '' }).birthDate).toBe('Birth date is required');
    expect(validateSignup({ ...valid, birthDate: '1992-13-45' }).birthDate).toBe('Enter a real date as YYYY-MM-DD');
    expect(validateSignup({ ...valid, birthDate: '2015-06-01' }).birthDate).toBe(
      'You must be at least 18 years old to open an account',
    );
  });

  it('requires at least 8 password characters', () => {
    expect(validateSignup({ ...valid, password: 'short', passwordConfirmation: 'short' }).password).toBe(
      'Password must be at least 8 characters',
    );
  });
});

describe('SignupPage', () => {
  it('does not roll a typed impossible birth date over into another date', async () => {
    api();
    renderScreen(<SignupPage />);
    const input = (await screen.findByLabelText(/Birth Date/)) as HTMLInputElement;
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '1992-13-45' } });
    fireEvent.blur(input);
    await waitFor(() => expect(input.value).not.toBe('1993-02-14'));
    expect(input.value === '' || input.value === '1992-13-45').toBe(true);
  });

  it('shows the title with the app name', async () => {
    api();
    renderScreen(<SignupPage />);
    expect(await screen.findByText('Create an account on Test Broker')).toBeTruthy();
    expect(screen.getByText('(Optional)')).toBeTruthy();
  });

  it('shows a field error only once the field has been touched', async () => {
    api();
    renderScreen(<SignupPage />);
    const password = screen.getByLabelText(/^Password/);
    const confirmation = screen.getByLabelText(/Confirm Password/);
    fireEvent.change(password, { target: { value: 'Secret123!' } });
    fireEvent.change(confirmation, { target: { value: 'Secret123?' } });
    expect(screen.queryByText('Passwords must match')).toBeNull();
    expect(screen.queryByText('Full name is required')).toBeNull();

    fireEvent.blur(confirmation);
    expect(await screen.findByText('Passwords must match')).toBeTruthy();
    // Untouched fields stay quiet.
    expect(screen.queryByText('Full name is required')).toBeNull();

    fireEvent.blur(screen.getByLabelText(/Full Name/));
    expect(await screen.findByText('Full name is required')).toBeTruthy();

    fireEvent.change(confirmation, { target: { value: 'Secret123!' } });
    fireEvent.blur(confirmation);
    await waitFor(() => expect(screen.queryByText('Passwords must match')).toBeNull());
  });
});
