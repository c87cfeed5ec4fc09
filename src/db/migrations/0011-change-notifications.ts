import { sql, type Kysely } from 'kysely'

// Change notifications for the in-memory caches (src/notifications): triggers call pg_notify,
// which PostgreSQL delivers to every listening instance when the transaction commits (once per
// distinct payload per transaction).
//
// * sfts_credentials: an API key, OAuth access token or grant revoked, re-scoped, re-dated or
//   deleted. Payload `k:<key hash>`, `t:<token hash>`, `g:<grant id>`: enough to evict.
// * sfts_storefront: something a live storefront page is keyed by or shows changed. Payload
//   `<store id>|<table>`: the live theme (publish, rollback), the active theme's row (a WHEN
//   clause: draft edits do not even call the function), navigation menus, the store row
//   (catalog_version bump, profile), store settings and checkout terms.
//
// Nothing on the events table: the append path stays as it is. The projection tables (themes,
// live_themes, navigation_menus) are replaced by a rebuild's swap, which does not carry triggers
// over: `change_notifications_attach()` (re)creates every trigger and rebuild.ts calls it after
// the swap, then notifies `*` (every store) since a rebuilt table may differ anywhere.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function change_notify_credential() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'api_keys' then
        perform pg_notify('sfts_credentials', 'k:' || old.key_hash);
      elsif tg_table_name = 'oauth_tokens' then
        perform pg_notify('sfts_credentials', 't:' || old.token_hash);
      else
        perform pg_notify('sfts_credentials', 'g:' || old.grant_id);
      end if;
      return null;
    end $$`.execute(db)
  await sql`
    create function change_notify_storefront() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform pg_notify('sfts_storefront', old.store_id || '|' || tg_table_name);
      else
        perform pg_notify('sfts_storefront', new.store_id || '|' || tg_table_name);
        if tg_op = 'UPDATE' and old.store_id is distinct from new.store_id then
          perform pg_notify('sfts_storefront', old.store_id || '|' || tg_table_name);
        end if;
      end if;
      return null;
    end $$`.execute(db)
  await sql`
    create function change_notifications_attach() returns void language plpgsql as $$
    begin
      -- Credentials: what a cached verification depends on.
      drop trigger if exists change_notify on api_keys;
      create trigger change_notify after update on api_keys for each row
        when (old.revoked_at is distinct from new.revoked_at or old.scopes is distinct from new.scopes
          or old.expires_at is distinct from new.expires_at or old.key_hash is distinct from new.key_hash
          or old.store_id is distinct from new.store_id)
        execute function change_notify_credential();
      drop trigger if exists change_notify_delete on api_keys;
      create trigger change_notify_delete after delete on api_keys for each row execute function change_notify_credential();
      drop trigger if exists change_notify on oauth_tokens;
      create trigger change_notify after update on oauth_tokens for each row
        when (old.revoked_at is distinct from new.revoked_at or old.scopes is distinct from new.scopes
          or old.expires_at is distinct from new.expires_at or old.resource is distinct from new.resource)
        execute function change_notify_credential();
      drop trigger if exists change_notify_delete on oauth_tokens;
      create trigger change_notify_delete after delete on oauth_tokens for each row execute function change_notify_credential();
      drop trigger if exists change_notify on oauth_grants;
      create trigger change_notify after update on oauth_grants for each row
        when (old.revoked_at is distinct from new.revoked_at or old.store_id is distinct from new.store_id)
        execute function change_notify_credential();
      drop trigger if exists change_notify_delete on oauth_grants;
      create trigger change_notify_delete after delete on oauth_grants for each row execute function change_notify_credential();

      -- Storefront: the live theme, the active theme's row only, menus, the store and its settings.
      drop trigger if exists change_notify on live_themes;
      create trigger change_notify after insert or update or delete on live_themes for each row execute function change_notify_storefront();
      drop trigger if exists change_notify_update on themes;
      create trigger change_notify_update after update on themes for each row
        when (old.status = 'active' or new.status = 'active')
        execute function change_notify_storefront();
      drop trigger if exists change_notify_insert on themes;
      create trigger change_notify_insert after insert on themes for each row
        when (new.status = 'active')
        execute function change_notify_storefront();
      drop trigger if exists change_notify_delete on themes;
      create trigger change_notify_delete after delete on themes for each row
        when (old.status = 'active')
        execute function change_notify_storefront();
      drop trigger if exists change_notify on navigation_menus;
      create trigger change_notify after insert or update or delete on navigation_menus for each row execute function change_notify_storefront();
      drop trigger if exists change_notify on stores;
      create trigger change_notify after update or delete on stores for each row execute function change_notify_storefront();
      drop trigger if exists change_notify on store_settings;
      create trigger change_notify after insert or update or delete on store_settings for each row execute function change_notify_storefront();
      drop trigger if exists change_notify on checkout_configs;
      create trigger change_notify after insert or update or delete on checkout_configs for each row execute function change_notify_storefront();
    end $$`.execute(db)
  await sql`select change_notifications_attach()`.execute(db)
}
