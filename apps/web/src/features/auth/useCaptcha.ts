import { useCallback, useState } from 'react';
import { useBranding } from '../../api/hooks.ts';

/**
 * Captcha state of a public form: shown only when branding.recaptcha.status is "on" (spec §2).
 * `key` changes on reset so the widget remounts with a fresh challenge.
 */
export function useCaptcha() {
  const { data } = useBranding();
  const enabled = data?.recaptcha.status === 'on';
  const siteKey = data?.recaptcha.siteKey ?? null;
  const [token, setToken] = useState<string | null>(null);
  const [key, setKey] = useState(0);
  const reset = useCallback(() => {
    setToken(null);
    setKey((k) => k + 1);
  }, []);
  return { enabled, siteKey, token, setToken, key, reset, satisfied: !enabled || Boolean(token) };
}
