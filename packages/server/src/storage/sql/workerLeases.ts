import type { Kysely } from 'kysely';
import type { WorkerLeaseRecord, WorkerLeaseRepository } from '../types/workerLeases.js';
import { int } from './rows.js';
import type { Database } from './schema.js';

interface LeaseRow {
  worker_id: number | bigint | string;
  process_id: number | bigint | string;
  holder: string;
  expires_at: number | bigint | string;
}

const toLease = (row: LeaseRow): WorkerLeaseRecord => ({
  workerId: int(row.worker_id),
  processId: int(row.process_id),
  holder: row.holder,
  expiresAt: int(row.expires_at),
});

/** Snowflake worker slot leases (migration 0016). */
export function createWorkerLeaseRepository(db: Kysely<Database>): WorkerLeaseRepository {
  const slotOf = (lease: { workerId: number; processId: number }) =>
    db
      .selectFrom('worker_leases')
      .selectAll()
      .where('worker_id', '=', lease.workerId)
      .where('process_id', '=', lease.processId);
  return {
    async claim(lease, nowMs) {
      // The upsert changes the row only when the slot is free for this holder; a row it leaves
      // alone is another holder's live lease, read back below.
      const taken = await db
        .insertInto('worker_leases')
        .values({
          worker_id: lease.workerId,
          process_id: lease.processId,
          holder: lease.holder,
          expires_at: lease.expiresAt,
        })
        .onConflict((oc) =>
          oc
            .columns(['worker_id', 'process_id'])
            .doUpdateSet({ holder: lease.holder, expires_at: lease.expiresAt })
            .where((eb) =>
              eb.or([
                eb('worker_leases.expires_at', '<=', nowMs),
                eb('worker_leases.holder', '=', lease.holder),
              ]),
            ),
        )
        .returningAll()
        .executeTakeFirst();
      if (taken !== undefined) return toLease(taken);
      return toLease(await slotOf(lease).executeTakeFirstOrThrow());
    },
    async listLive(nowMs) {
      const rows = await db
        .selectFrom('worker_leases')
        .selectAll()
        .where('expires_at', '>', nowMs)
        .orderBy('worker_id')
        .orderBy('process_id')
        .execute();
      return rows.map(toLease);
    },
    async renew(lease) {
      const result = await db
        .updateTable('worker_leases')
        .set({ expires_at: lease.expiresAt })
        .where('worker_id', '=', lease.workerId)
        .where('process_id', '=', lease.processId)
        .where('holder', '=', lease.holder)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async release(slot) {
      await db
        .deleteFrom('worker_leases')
        .where('worker_id', '=', slot.workerId)
        .where('process_id', '=', slot.processId)
        .where('holder', '=', slot.holder)
        .execute();
    },
  };
}
