// The one schema drizzle reads: the core tables, money movements and the CRM, each in a file of its own that
// imports only the core (so no two schema files import each other).
export * from './schema-core.ts';
export * from './schema-money.ts';
export * from './schema-crm.ts';
