import { describe, expect, it } from 'vitest';
import { LeadIntakeRequest, intakeName } from './affiliate.ts';

describe('lead intake payload', () => {
  it('takes firstName/lastName, else splits fullName at its first space', () => {
    expect(intakeName({ firstName: 'Ann', lastName: 'Lee' })).toEqual({ firstName: 'Ann', lastName: 'Lee' });
    expect(intakeName({ fullName: 'Tom  van der Berg' })).toEqual({ firstName: 'Tom', lastName: 'van der Berg' });
    expect(intakeName({ fullName: 'Madonna' })).toEqual({ firstName: 'Madonna', lastName: null });
    expect(intakeName({ firstName: 'Ann', fullName: 'Other Name' })).toEqual({ firstName: 'Ann', lastName: null });
  });

  it('needs a name and an email, lower-cases the email and ignores unknown fields', () => {
    expect(LeadIntakeRequest.parse({ fullName: 'Ann Lee', email: ' Ann@Example.COM ', extra: 1 })).toEqual({
      fullName: 'Ann Lee',
      email: 'ann@example.com',
    });
    const noName = LeadIntakeRequest.safeParse({ email: 'a@b.co' });
    expect(noName.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['firstName', 'First name is required'],
    ]);
    expect(LeadIntakeRequest.safeParse({ firstName: 'A', email: '' }).success).toBe(false);
    expect(LeadIntakeRequest.safeParse({ firstName: 'A\u0000', email: 'a@b.co' }).success).toBe(false);
  });
});
