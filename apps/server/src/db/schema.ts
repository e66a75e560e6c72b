// The one schema drizzle reads: the core tables, sign-in, the site's content, money movements, the CRM, trading beyond
// market orders and the rest, each in a file of its own that imports only the core (so no two schema files import
// each other).
export * from './schema-core.ts';
export * from './schema-auth.ts';
export * from './schema-site.ts';
export * from './schema-money.ts';
export * from './schema-crm.ts';
export * from './schema-trading.ts';
export * from './schema-chart.ts';
export * from './schema-approvals.ts';
export * from './schema-partners.ts';
export * from './schema-records.ts';
