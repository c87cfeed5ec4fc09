import t from 'tap'
import { mediaDecider, type RegisterMedia } from '../../../src/aggregates/media/decider.ts'
import type { MediaEvent } from '../../../src/aggregates/media/events.ts'
import { deciderSpec } from '../../support/decider-spec.ts'

// A store's media library: an image registers once, by its content hash or its URL.
const at = '2026-11-21T10:00:00.000Z'
const { given } = deciderSpec(mediaDecider, { at })
const sha = 'a'.repeat(64)
const upload: RegisterMedia = {
  assetId: 'med_1',
  alt: 'A tent',
  source: 'upload',
  sha256: sha,
  contentType: 'image/webp',
  byteSize: 2048,
  width: 800,
  height: 600,
}
const link: RegisterMedia = { assetId: 'med_2', alt: '', source: 'url', url: 'https://cdn.example/a.png' }

t.test('an upload is addressed by its content hash, with its type, size and pixels', async (t) => {
  const [event] = given([]).when(upload).thenEmits(['MediaAssetRegistered'])
  t.same(event, {
    type: 'MediaAssetRegistered',
    data: {
      assetId: 'med_1',
      url: `/media/${sha}.webp`,
      source: 'upload',
      contentType: 'image/webp',
      byteSize: 2048,
      width: 800,
      height: 600,
      sha256: sha,
      alt: 'A tent',
      at,
    },
  })
})

t.test('an external URL is registered as given, never fetched: no type, size or pixels', async (t) => {
  t.match(given([]).when(link).thenEmits(['MediaAssetRegistered']), [
    { data: { url: 'https://cdn.example/a.png', source: 'url', contentType: null, byteSize: null, width: null } },
  ])
})

t.test('the same bytes or the same URL register once', async () => {
  const registered = [...given([]).when(upload).thenDecides(), ...given([]).when(link).thenDecides()] as MediaEvent[]
  given(registered)
    .when({ ...upload, assetId: 'med_3', alt: 'Another name' })
    .thenEmits([])
  given(registered)
    .when({ ...link, assetId: 'med_4' })
    .thenEmits([])
  given(registered)
    .when({ ...upload, assetId: 'med_5', sha256: 'b'.repeat(64) })
    .thenEmits(['MediaAssetRegistered'])
})
