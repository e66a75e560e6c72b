import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local currencyapi.com v3: GET /v3/latest?base_currency=USD and GET /v3/status with header `apikey`.
 * `latest` costs one request of the monthly quota (and reports it in X-RateLimit-* headers); `status` is free.
 */
export class FakeCurrencyApi {
  readonly server: http.Server;
  readonly calls: Array<{ path: string; apikey: string | undefined }> = [];
  static readonly REFUSAL = 'Invalid authentication credentials';
  used: number;

  private constructor(
    private readonly validKey: string,
    readonly total: number,
    used: number,
    private readonly rates: Record<string, number>,
  ) {
    this.used = used;
    this.server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const apikey = req.headers.apikey as string | undefined;
      this.calls.push({ path: `${url.pathname}${url.search}`, apikey });
      const json = (status: number, body: object, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (apikey !== this.validKey) return json(401, { message: FakeCurrencyApi.REFUSAL });
      if (url.pathname === '/v3/status') {
        return json(200, {
          account_id: 1,
          quotas: {
            month: { total: this.total, used: this.used, remaining: this.total - this.used },
            grace: { total: 0, used: 0, remaining: 0 },
          },
        });
      }
      if (url.pathname === '/v3/latest') {
        if (url.searchParams.get('base_currency') !== 'USD')
          return json(422, { message: 'base_currency must be USD in this fake' });
        if (this.used >= this.total) return json(429, { message: 'You used all your monthly requests.' });
        this.used += 1;
        const data = Object.fromEntries(Object.entries(this.rates).map(([code, value]) => [code, { code, value }]));
        return json(
          200,
          { meta: { last_updated_at: '2025-01-06T09:59:59Z' }, data },
          {
            'X-RateLimit-Limit-Quota-Month': String(this.total),
            'X-RateLimit-Remaining-Quota-Month': String(this.total - this.used),
          },
        );
      }
      json(404, { message: 'Not found' });
    });
  }

  static async start(
    validKey: string,
    opts: { total?: number; used?: number; rates?: Record<string, number> } = {},
  ): Promise<FakeCurrencyApi> {
    const fake = new FakeCurrencyApi(
      validKey,
      opts.total ?? 300,
      opts.used ?? 72,
      opts.rates ?? { USD: 1, EUR: 0.92345, GBP: 0.79012, JPY: 151.2 },
    );
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v3`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
