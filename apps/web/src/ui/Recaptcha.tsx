import { useEffect, useRef } from 'react';
import { Box } from '@mantine/core';

interface Grecaptcha {
  render(container: HTMLElement, params: Record<string, unknown>): number;
  reset(id?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    __onRecaptchaLoad?: () => void;
  }
}

let scriptPromise: Promise<Grecaptcha> | null = null;

/** Loads Google's reCAPTCHA v2 script once, and only when a widget is actually shown. */
function loadRecaptcha(): Promise<Grecaptcha> {
  if (scriptPromise !== null) return scriptPromise;
  scriptPromise = new Promise<Grecaptcha>((resolve, reject) => {
    if (window.grecaptcha?.render) return resolve(window.grecaptcha);
    window.__onRecaptchaLoad = () =>
      window.grecaptcha ? resolve(window.grecaptcha) : reject(new Error('reCAPTCHA missing'));
    const script = document.createElement('script');
    script.src = 'https://www.google.com/recaptcha/api.js?onload=__onRecaptchaLoad&render=explicit';
    script.async = true;
    script.defer = true;
    script.onerror = () => {
      scriptPromise = null;
      reject(new Error('Could not load reCAPTCHA'));
    };
    document.head.appendChild(script);
  });
  return scriptPromise;
}

export interface RecaptchaProps {
  siteKey: string;
  /** The response token when solved, null when it expires or errors. */
  onChange: (token: string | null) => void;
}

/** reCAPTCHA v2 checkbox. Remount it (change its key) to get a fresh challenge after a failed submit. */
export function Recaptcha({ siteKey, onChange }: RecaptchaProps) {
  const container = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(() => {
    let cancelled = false;
    const el = container.current;
    loadRecaptcha()
      .then((g) => {
        if (cancelled || !el) return;
        // A fresh child per mount: grecaptcha refuses to render twice into the same element.
        const target = document.createElement('div');
        el.appendChild(target);
        g.render(target, {
          sitekey: siteKey,
          theme: 'dark',
          callback: (token: string) => onChangeRef.current(token),
          'expired-callback': () => onChangeRef.current(null),
          'error-callback': () => onChangeRef.current(null),
        });
      })
      .catch((err: unknown) => console.warn(err));
    return () => {
      cancelled = true;
      if (el) el.innerHTML = '';
    };
  }, [siteKey]);
  return <Box ref={container} mih={78} data-testid="recaptcha" />;
}
