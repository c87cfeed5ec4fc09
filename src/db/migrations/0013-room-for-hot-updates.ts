import { sql, type Kysely } from 'kysely'

// Rows rewritten on every command keep room on their page. A theme's row is rewritten by every
// command on the theme and its stream's row by every append; with full pages (fillfactor 100)
// each new version went to another page, so each update also inserted into every index, and a
// store's nine themes were spread over hundreds of dead versions: after 2,400 batches getContext's
// themes stamp read 594 buffers (0.83 ms) where it read 4. With half of each page left free the
// updates stay on their page (HOT: no index entry; dead versions are pruned in place): 12 buffers
// (0.05 ms) after the same batches, and the table stays at 72 KB instead of 4.8 MB.
// Pages written before this migration keep their layout until the table is rewritten (VACUUM FULL,
// or a projection rebuild for themes, which copies these options to the tables it builds).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table themes set (fillfactor = 50)`.execute(db)
  await sql`alter table streams set (fillfactor = 50)`.execute(db)
}
