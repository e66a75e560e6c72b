/**
 * Google reCAPTCHA server-side verification: POST application/x-www-form-urlencoded {secret, response, remoteip}
 * to the siteverify endpoint, which answers JSON {success: boolean, 'error-codes'?: string[]}.
 */
export interface CaptchaVerifier {
  verify(input: { secret: string; response: string; remoteIp?: string }): Promise<'ok' | 'failed' | 'unavailable'>;
}

export function createCaptchaVerifier(verifyUrl: string, timeoutMs = 5000): CaptchaVerifier {
  return {
    async verify({ secret, response, remoteIp }) {
      const body = new URLSearchParams({ secret, response });
      if (remoteIp) body.set('remoteip', remoteIp);
      try {
        const res = await fetch(verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) return 'unavailable';
        const json = (await res.json()) as { success?: unknown };
        return json.success === true ? 'ok' : 'failed';
      } catch {
        return 'unavailable';
      }
    },
  };
}
