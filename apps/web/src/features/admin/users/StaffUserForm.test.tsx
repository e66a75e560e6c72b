import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../../ui/data-table/testing.tsx';
import { staffUser } from '../fixtures.ts';
import { StaffUserForm } from './StaffUserForm.tsx';

afterEach(cleanup);

// Text fields by role so "Email" does not also match the "Email Verified" switch; the password box has no role.
const input = (label: RegExp) =>
  label.source.includes('Password') ? screen.getByLabelText(label) : screen.getByRole('textbox', { name: label });
const type = (label: RegExp, value: string) => {
  fireEvent.change(input(label), { target: { value } });
  fireEvent.blur(input(label));
};

describe('StaffUserForm', () => {
  it('shows the required messages on submit and sends nothing', async () => {
    const { calls } = mockFetch(() => ({ message: 'ok' }));
    renderWithProviders(<StaffUserForm onSaved={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Full name is required')).toBeTruthy();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('shows a field message once the field is left, with the spec wording', async () => {
    mockFetch(() => ({ message: 'ok' }));
    renderWithProviders(<StaffUserForm onSaved={vi.fn()} />);
    type(/Email/, 'not-an-email');
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    type(/Password/, 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    // Untouched fields stay quiet until submit.
    expect(screen.queryByText('Full name is required')).toBeNull();
  });

  it('posts the payload, toasts and reports success', async () => {
    const { calls } = mockFetch(() => ({ message: 'User added successfully' }));
    const onSaved = vi.fn();
    renderWithProviders(<StaffUserForm onSaved={onSaved} />);
    type(/Full Name/, 'Nina New');
    type(/Email/, 'nina@demo.test');
    type(/Password/, 'Secret123!');
    type(/IP Whitelist/, '10.0.0.1, 10.0.0.2');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls[0].method).toBe('POST');
    expect(calls[0].path).toBe('/admin/users');
    expect(calls[0].body).toEqual({
      fullName: 'Nina New',
      email: 'nina@demo.test',
      password: 'Secret123!',
      roleId: 1,
      whitelist: '10.0.0.1, 10.0.0.2',
      isEmailVerified: true,
      isActive: true,
    });
    expect(await screen.findByText('User added successfully')).toBeTruthy();
  });

  it('edits without a password and shows the server message on failure', async () => {
    const { calls } = mockFetch(() => ({
      status: 409,
      body: { message: 'An account with this email already exists.' },
    }));
    const onSaved = vi.fn();
    renderWithProviders(
      <StaffUserForm user={staffUser({ whitelists: [{ ip_address: '10.1.1.1' }] })} onSaved={onSaved} />,
    );
    expect(input(/IP Whitelist/)).toHaveProperty('value', '10.1.1.1');
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('An account with this email already exists.')).toBeTruthy();
    expect(calls[0].method).toBe('PUT');
    expect(calls[0].path).toBe('/admin/users/2');
    expect(calls[0].body).not.toHaveProperty('password');
    expect(calls[0].body).toMatchObject({ roleId: 2, fullName: 'Max Manager' });
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('still asks for 8 characters when a new password is typed on edit', async () => {
    mockFetch(() => ({ message: 'ok' }));
    renderWithProviders(<StaffUserForm user={staffUser()} onSaved={vi.fn()} />);
    type(/Password/, 'abc');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
  });
});
