const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const V6 = /^[0-9a-fA-F:]+$/;

/** An IPv4 or IPv6 address (no ranges). */
export function isIP(value: string): boolean {
  if (V4.test(value)) return true;
  return value.includes(':') && V6.test(value) && value.split(':').length <= 8;
}

/** Normalises IPv4-mapped IPv6 ('::ffff:1.2.3.4') to IPv4 for comparisons. */
export function normaliseIP(ip: string): string {
  return ip.startsWith('::ffff:') && V4.test(ip.slice(7)) ? ip.slice(7) : ip;
}
