import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';
import type { SummaryConfig } from '../config';
import { loadShareLinkKeys, SEAL_CONTEXT } from '../services/share-link-keys';

type Row = Record<string, unknown>;

/**
 * A SMART Health Link's key was stored in the clear (share_links.shl_key). It moves
 * to shl_key_sealed, sealed with the share links' key (SHARE_LINK_KEY) in the shared envelope and
 * bound to the row, and the clear column goes. Made per config: the migration needs the key.
 */
export function sealShlKeysMigration(config: Pick<SummaryConfig, 'shareLinkKey' | 'mode' | 'dataDir'>) {
  return class SealShlKeys1797000000003 implements MigrationInterface {
    name = 'SealShlKeys1797000000003';

    async up(queryRunner: QueryRunner): Promise<void> {
      const s = `"${schemaOf(queryRunner.connection)}"`;
      await queryRunner.query(`ALTER TABLE ${s}.share_links ADD COLUMN shl_key_sealed bytea`);
      const rows = (await queryRunner.query(`SELECT id, shl_key FROM ${s}.share_links WHERE shl_key IS NOT NULL`)) as Row[];
      if (rows.length > 0) {
        const keys = await loadShareLinkKeys(config);
        for (const row of rows) {
          const id = String(row['id']);
          await queryRunner.query(`UPDATE ${s}.share_links SET shl_key_sealed = $1 WHERE id = $2`, [keys.seal(String(row['shl_key']), SEAL_CONTEXT.shlKey(id)), id]);
        }
      }
      await queryRunner.query(`ALTER TABLE ${s}.share_links DROP COLUMN shl_key`);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      const s = `"${schemaOf(queryRunner.connection)}"`;
      await queryRunner.query(`ALTER TABLE ${s}.share_links ADD COLUMN shl_key text`);
      const rows = (await queryRunner.query(`SELECT id, shl_key_sealed FROM ${s}.share_links WHERE shl_key_sealed IS NOT NULL`)) as Row[];
      if (rows.length > 0) {
        const keys = await loadShareLinkKeys(config);
        for (const row of rows) {
          const id = String(row['id']);
          const plain = keys.open(Buffer.from(row['shl_key_sealed'] as Uint8Array), SEAL_CONTEXT.shlKey(id));
          await queryRunner.query(`UPDATE ${s}.share_links SET shl_key = $1 WHERE id = $2`, [plain, id]);
        }
      }
      await queryRunner.query(`ALTER TABLE ${s}.share_links DROP COLUMN shl_key_sealed`);
    }
  };
}
