import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeVoiso } from '../../../test/fakes/voiso.ts';
import { createVoisoClient, dialDigits, parseClusterId, VoisoError } from './client.ts';

const KEY = 'a204cf426a66db3f2680f211b29978a10ed78fff247ad35f';
let fake: FakeVoiso;

beforeAll(async () => {
  fake = await FakeVoiso.start('cc-test01', KEY, [
    { email: 'sam@demo.test', ext: '1002', status: 'available' },
    { email: 'rita@demo.test', ext: null, status: 'Inbound' },
    { email: 'old@demo.test', ext: '1003', status: 'Logout' },
  ]);
});
afterAll(async () => fake.close());
beforeEach(() => {
  fake.failWith = null;
  fake.delayMs = 0;
});

const client = (key = KEY, timeoutMs = 2000, cluster = 'cc-test01') =>
  createVoisoClient({ clusterId: cluster, apiKey: key }, { baseUrl: fake.baseUrl, timeoutMs });
const failure = async (p: Promise<unknown>): Promise<VoisoError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VoisoError);
  return err as VoisoError;
};

describe('Voiso client', () => {
  it('starts a call with the documented query parameters and returns the call id', async () => {
    const { callId } = await client().startCall({
      agent: 'sam@demo.test',
      number: '447700900123',
      accountId: '41',
      crm: 'Broker CRM',
    });
    const sent = fake.startCalls.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe(`/cc-test01/api/v1/${KEY}/click2call`);
    expect(sent.query).toEqual({
      agent: 'sam@demo.test',
      number: '447700900123',
      account_id: '41',
      crm: 'Broker CRM',
      get_call_id: 'true',
    });
    expect(callId).toBe(sent.callId);
    expect(callId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports a refused key as such, never as a started call', async () => {
    const err = await failure(client('wrong-key').startCall({ agent: 'sam@demo.test', number: '447700900123' }));
    expect(err.kind).toBe('auth');
    expect(err.httpStatus).toBe(403);
    expect(err.message).toContain(FakeVoiso.REFUSAL);
    expect(err.message).toContain('Trade APIs');
  });

  it("passes on Voiso's reason for a refused call (unknown agent, bad number)", async () => {
    const unknown = await failure(client().startCall({ agent: 'nobody@demo.test', number: '447700900123' }));
    expect(unknown).toMatchObject({ kind: 'rejected', message: 'User not found', httpStatus: 400 });
    const bad = await failure(client().startCall({ agent: '1002', number: '0123' }));
    expect(bad.kind).toBe('rejected');
    expect(bad.message).toContain('number');
  });

  it('treats an upstream 5xx as unavailable', async () => {
    fake.failWith = 503;
    const err = await failure(client().startCall({ agent: 'sam@demo.test', number: '447700900123' }));
    expect(err).toMatchObject({ kind: 'unavailable', httpStatus: 503 });
    expect(err.message).toContain('HTTP 503');
    expect((await failure(client().agentsStatus())).kind).toBe('unavailable');
  });

  it('gives up after the timeout', async () => {
    fake.delayMs = 1000;
    const started = Date.now();
    const err = await failure(client(KEY, 200).startCall({ agent: 'sam@demo.test', number: '447700900123' }));
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a wrong cluster reaches nothing that looks like Voiso', async () => {
    const err = await failure(
      client(KEY, 2000, 'cc-other').startCall({ agent: 'sam@demo.test', number: '447700900123' }),
    );
    expect(err.kind).toBe('rejected');
  });

  it('an unreachable host is unavailable', async () => {
    const dead = createVoisoClient(
      { clusterId: 'x', apiKey: KEY },
      { baseUrl: 'http://127.0.0.1:1/{cluster}', timeoutMs: 2000 },
    );
    expect((await failure(dead.agentsStatus())).kind).toBe('unavailable');
  });

  it('lists agents with lower-case statuses, logout read as offline', async () => {
    expect(await client().agentsStatus()).toEqual([
      { email: 'sam@demo.test', ext: '1002', status: 'available' },
      { email: 'rita@demo.test', ext: null, status: 'inbound' },
      { email: 'old@demo.test', ext: '1003', status: 'offline' },
    ]);
    expect((await failure(client('nope').agentsStatus())).kind).toBe('auth');
  });
});

describe('cluster ids and numbers', () => {
  it('reduces pasted addresses to the cluster label and refuses anything else', () => {
    expect(parseClusterId('cc-ams03')).toBe('cc-ams03');
    expect(parseClusterId(' https://CC-AMS03.voiso.com/omnichannel ')).toBe('cc-ams03');
    expect(parseClusterId('cc-ams03.voiso.com')).toBe('cc-ams03');
    for (const bad of ['', null, 'evil.com', 'a b', 'x@y', '-x', 'cc_ams', 'evil.com#', '127.0.0.1:80'])
      expect(parseClusterId(bad)).toBeNull();
  });

  it('dials digits only, without + or 00', () => {
    expect(dialDigits('+44 7700 900123')).toBe('447700900123');
    expect(dialDigits('0044 (7700) 900-123')).toBe('447700900123');
    expect(dialDigits('12345')).toBeNull();
    expect(dialDigits('******23')).toBeNull();
    expect(dialDigits(null)).toBeNull();
  });
});
