import { describe, expect, it } from 'vitest';
import { resolveDotSegments } from './request-path.ts';

describe('resolveDotSegments', () => {
  it('resolves dot segments as a browser does and keeps the query as sent', () => {
    expect(resolveDotSegments('/api/x/../admin/users/api')).toBe('/api/admin/users/api');
    expect(resolveDotSegments('/api/./admin')).toBe('/api/admin');
    expect(resolveDotSegments('/api/%2e%2e/api/admin')).toBe('/api/admin');
    expect(resolveDotSegments('/api/%2E/admin?x=../y')).toBe('/api/admin?x=../y');
    expect(resolveDotSegments('/api\\admin\\users')).toBe('/api/admin/users');
    expect(resolveDotSegments('/../../etc/passwd')).toBe('/etc/passwd');
  });

  it('leaves ordinary paths alone, a leading double slash included (it must not become a host)', () => {
    for (const url of ['/api/admin/users/api', '/api/docs/json?x=1', '/assets/index-AbC.js', '//api//admin'])
      expect(resolveDotSegments(url)).toBe(url);
    expect(resolveDotSegments('//evil.example/../api/x')).toBe('//api/x');
  });
});
