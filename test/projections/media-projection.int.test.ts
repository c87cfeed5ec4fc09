import t from 'tap'
import type { MediaEvent } from '../../src/aggregates/media/events.ts'
import { mediaStream } from '../../src/aggregates/media/events.ts'
import { mediaProjection } from '../../src/projections/media-projection.ts'
import { type Given, projectionSpec } from '../support/projection-spec.ts'

// media_assets: one row per registered image of a store.
const registered = (storeId: string, assetId: string, minute: number, upload: boolean): Given =>
  ({
    type: 'MediaAssetRegistered',
    data: {
      assetId,
      url: upload ? `/media/${'c'.repeat(64)}.png` : `https://cdn.example/${assetId}.png`,
      source: upload ? 'upload' : 'url',
      contentType: upload ? 'image/png' : null,
      byteSize: upload ? 100 : null,
      width: upload ? 10 : null,
      height: upload ? 20 : null,
      sha256: upload ? 'c'.repeat(64) : null,
      alt: `Image ${assetId}`,
      at: `2026-11-21T10:0${minute}:00.000Z`,
    },
    streamId: mediaStream(storeId),
    storeId,
  }) satisfies MediaEvent & Given

t.test('media_assets', async (t) => {
  const spec = await projectionSpec(t, mediaProjection)
  await t.test('uploads and external URLs, each a row with what is known of it', async (t) => {
    await spec.given([registered('st_m1', 'med_a', 1, true), registered('st_m1', 'med_b', 2, false)]).thenRows(t, {
      media_assets: [
        { asset_id: 'med_a', source: 'upload', content_type: 'image/png', byte_size: 100, width: 10, height: 20 },
        { asset_id: 'med_b', source: 'url', url: 'https://cdn.example/med_b.png', content_type: null, width: null },
      ],
    })
  })
})
