import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

/**
 * A PostgreSQL database of a suite's own on the test server (DATABASE_URL), so the product it starts
 * sees no other suite's rows: `create()` before the product starts, `sql()` to read or arrange rows
 * the API cannot, `drop()` at the end (forced: the product may still hold connections).
 */
export class ScratchDatabase {
  readonly name: string;
  readonly url: string;
  private readonly adminUrl: string;

  constructor(prefix: string, adminUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test') {
    this.adminUrl = adminUrl;
    this.name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const url = new URL(adminUrl);
    url.pathname = `/${this.name}`;
    this.url = url.toString();
  }

  async create(): Promise<void> {
    await this.run(this.adminUrl, `CREATE DATABASE ${this.name}`);
  }

  async drop(): Promise<void> {
    await this.run(this.adminUrl, `DROP DATABASE IF EXISTS ${this.name} WITH (FORCE)`).catch(() => undefined);
  }

  /** A query in this database; its rows. */
  sql(query: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
    return this.run(this.url, query, params);
  }

  private async run(connectionString: string, query: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
    const client = new Client({ connectionString });
    await client.connect();
    try {
      return (await client.query(query, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  }
}
