import t from 'tap'
import { CompiledQuery } from 'kysely'
import { pgArray } from '../../src/db/pg-array.ts'
import { freshDatabase } from '../support/database.ts'

t.test('pgArray: the literal PostgreSQL reads back as the same array, whatever the strings hold', async (t) => {
  const { db } = await freshDatabase(t)
  const read = async <T>(cast: string, value: string): Promise<T> =>
    ((await db.executeQuery(CompiledQuery.raw(`select $1::${cast} as a`, [value]))).rows[0] as { a: T }).a
  const strings = [
    'plain',
    '',
    'NULL',
    'null',
    'with "quotes"',
    'back\\slash',
    '\\"',
    'a,b',
    '{braces}',
    ' spaced ',
    'ünïcödé ✓',
    "it's",
    'line\nbreak',
    'tab\there',
  ]
  t.same(await read('text[]', pgArray(strings)), strings)
  t.same(await read('text[]', pgArray([])), [])
  t.same(await read('integer[]', pgArray([1, 2, 30, -4, 0])), [1, 2, 30, -4, 0])
  const uuids = ['0192c2a4-5d1e-7c3a-8b9f-0123456789ab', '0192c2a4-5d1e-7c3a-9b9f-0123456789ac']
  t.same(await read('uuid[]', pgArray(uuids)), uuids)
  t.equal(
    pgArray(['a', 'b"c', 'd\\e', 1]),
    '{"a","b\\"c","d\\\\e",1}',
    'a string is quoted, and escaped only where it must be',
  )
})
