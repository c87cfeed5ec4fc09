import { sql, type Kysely } from 'kysely'

// Resized AVIF, WebP and original-format copies of the media library's images (issue 35 C),
// made on the first request for one and kept here, where every instance finds them. A row is
// first a claim (bytes null) by the instance that makes it, so concurrent first requests on
// several instances make it once; the others wait for the bytes. Keyed by the original blob's
// content hash, the width and the format, so a copy is never made twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table media_derivatives (
      sha256 text not null references media_blobs (sha256),
      width integer not null check (width > 0),
      format text not null check (format in ('avif', 'webp', 'png', 'jpg')),
      content_type text not null,
      height integer,
      byte_size integer,
      bytes bytea,
      claimed_at timestamptz not null default now(),
      created_at timestamptz,
      primary key (sha256, width, format)
    )`.execute(db)
}
