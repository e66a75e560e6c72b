import { useEffect } from 'react';
import { useDocumentTitle } from '@mantine/hooks';
import { useBranding } from '../api/hooks.ts';

/** Page title "{appName}" (client pages) and the broker's favicon. */
export function useBrandingHead(): void {
  const { data } = useBranding();
  useDocumentTitle(data?.appName ?? '');
  const favicon = data?.favicon;
  useEffect(() => {
    if (!favicon) return;
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (link && link.getAttribute('href') !== favicon) link.href = favicon;
  }, [favicon]);
}
