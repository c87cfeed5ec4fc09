import { sql, type Kysely } from 'kysely'

// Every write of a theme's row notifies `sfts_themes` with `<store id>|<theme id>`, so getTheme and
// getContext can answer from memory with no statement (src/queries/themes/theme-queries.ts,
// src/operations/context-operation.ts) under the change feed's 750 ms bound, like the catalogue
// reads (docs/decisions/0160-warm-reads-from-the-change-feed.md). Migration 0011 spared draft edits
// any pg_notify; this one does not: one notification per theme per transaction (PostgreSQL folds
// identical payloads), measured with bench:command (bench/README.md).
//
// change_notifications_attach() (rebuild.ts calls it after a swap) keeps 0011's body under another
// name and adds the themes trigger, so a rebuilt themes table gets it back too.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function change_notify_theme() returns trigger language plpgsql as $$
    begin
      perform pg_notify('sfts_themes', new.store_id || '|' || new.theme_id);
      return null;
    end $$`.execute(db)
  await sql`alter function change_notifications_attach() rename to change_notifications_attach_0011`.execute(db)
  await sql`
    create function change_notifications_attach() returns void language plpgsql as $$
    begin
      perform change_notifications_attach_0011();
      drop trigger if exists change_notify_theme on themes;
      create trigger change_notify_theme after insert or update on themes for each row execute function change_notify_theme();
    end $$`.execute(db)
  await sql`select change_notifications_attach()`.execute(db)
}
