/** Email mask: first 2 and last 2 characters of the local part, then '****'; short local parts stay. */
export function maskEmail(email: string | null | undefined): string {
  if (!email) return '';
  const at = email.indexOf('@');
  const local = at === -1 ? email : email.slice(0, at);
  const domain = at === -1 ? '' : email.slice(at);
  if (local.length <= 4) return email;
  return `${local.slice(0, 2)}${local.slice(-2)}****${domain}`;
}

/** Phone mask: '******' plus the last 2 digits; a value already masked ('***…') stays. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  if (phone.startsWith('***')) return phone;
  const digits = phone.replace(/\D/g, '');
  return `******${digits.slice(-2)}`;
}
