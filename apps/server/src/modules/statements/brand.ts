import type { AppContext } from '../../context.ts';
import { fileBytes, loadFile, sniff } from '../files/storage.ts';
import { getSettings } from '../settings/service.ts';

/**
 * Who issues a statement: the broker's name and logo from Site Settings (branding: value1 the name, file the logo).
 * An uploaded PNG or JPEG logo is embedded as it is; the built-in logo (/logo.svg, the web app's) is drawn as vectors
 * by the PDF; a WebP upload, which PDF cannot hold, or a logo that cannot be read leaves the name alone.
 */
export interface BrokerBrand {
  name: string;
  logo: { kind: 'image'; data: Buffer } | { kind: 'default' } | null;
}

export const DEFAULT_BROKER_NAME = 'Trading Platform';

export async function brokerBrand(ctx: Pick<AppContext, 'db' | 'objectStore'>): Promise<BrokerBrand> {
  const { branding } = await getSettings(ctx.db, ['branding']);
  const name = branding?.value1?.trim() || DEFAULT_BROKER_NAME;
  const file = branding?.file;
  if (!file) return { name, logo: null };
  if (file.startsWith('/')) return { name, logo: file === '/logo.svg' ? { kind: 'default' } : null };
  try {
    const row = await loadFile(ctx.db, file);
    if (!row) return { name, logo: null };
    const data = await fileBytes(ctx, row);
    const kind = sniff(data);
    return { name, logo: kind === 'image/png' || kind === 'image/jpeg' ? { kind: 'image', data } : null };
  } catch {
    // A statement is still issued when the bucket holding the logo does not answer.
    return { name, logo: null };
  }
}
