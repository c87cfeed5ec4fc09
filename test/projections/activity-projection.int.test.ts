import t from 'tap'
import { activityStream } from '../../src/aggregates/refusals/events.ts'
import { storeThemesStream } from '../../src/aggregates/store-themes/events.ts'
import { themeStream } from '../../src/aggregates/theme/events.ts'
import { activityProjection } from '../../src/projections/activity-projection.ts'
import { defaultThemeDocument } from '../../src/theme/document.ts'
import { type Given, projectionSpec } from '../support/projection-spec.ts'

// developer_activity: one row per command, with a line per visible change; refusals too.
const at = '2026-11-21T10:00:00.000Z'

t.test('developer_activity', async (t) => {
  const spec = await projectionSpec(t, activityProjection)

  await t.test('a command is one row listing its changes; bookkeeping events add no line', async (t) => {
    const store = 'st_a1'
    const events: Given[] = [
      {
        type: 'ThemeCreated',
        data: {
          themeId: 'thm_1',
          storeId: store,
          name: 'Spring',
          provider: 'claude',
          document: defaultThemeDocument(),
          duplicatedFrom: null,
          at,
        },
        streamId: themeStream('thm_1'),
        storeId: store,
        command: 'create',
      },
      {
        type: 'StoreThemeAdded',
        data: { themeId: 'thm_1', at },
        streamId: storeThemesStream(store),
        storeId: store,
        command: 'create',
      },
      {
        type: 'ThemeRenamed',
        data: { name: 'Summer', previousName: 'Spring', at },
        streamId: themeStream('thm_1'),
        storeId: store,
        command: 'batch',
      },
      {
        type: 'ThemeTokensUpdated',
        data: { tokens: defaultThemeDocument().theme, changed: ['primaryColor'], at },
        streamId: themeStream('thm_1'),
        storeId: store,
        command: 'batch',
      },
    ]
    await spec.given(events).thenRows(t, {
      developer_activity: [
        {
          store_id: store,
          action: 'specCommand',
          outcome: 'applied',
          theme_id: 'thm_1',
          channel: 'rest',
          credential_kind: 'api_key',
          credential_id: 'key_spec',
          app_id: 'app_spec',
          summary: 'Created draft theme "Spring" (provider: claude)',
          changes: ['Created draft theme "Spring" (provider: claude)'],
          error_code: null,
        },
        {
          outcome: 'applied',
          summary: '2 changes: Renamed the theme from "Spring" to "Summer"; Changed design tokens: primaryColor',
          changes: ['Renamed the theme from "Spring" to "Summer"', 'Changed design tokens: primaryColor'],
        },
      ],
    })
  })

  await t.test('a refusal is a row of its own, filed under the theme it concerns', async (t) => {
    await spec
      .given([
        {
          type: 'CommandRejected',
          data: { themeId: 'thm_9', code: 'UNSAFE_CONTENT', message: 'settings.heading: no scripts', at },
          streamId: activityStream('st_a2'),
          storeId: 'st_a2',
        },
      ])
      .thenRows(t, {
        developer_activity: [
          {
            outcome: 'rejected',
            theme_id: 'thm_9',
            error_code: 'UNSAFE_CONTENT',
            summary: 'Refused: UNSAFE_CONTENT: settings.heading: no scripts',
            // Recorded before refusals kept their issues: the view says they were not kept.
            issues: null,
            issue_count: null,
          },
        ],
      })
  })

  await t.test('a refusal keeps the issues the caller was told', async (t) => {
    const issues = [
      { path: 'operations[0].settings.heading', code: 'UNSAFE_CONTENT', message: 'scripts are not allowed' },
      {
        path: 'operations[1].settings.primaryButton.href',
        code: 'UNSAFE_CONTENT',
        message: 'javascript: links are not allowed',
      },
    ]
    await spec
      .given([
        {
          type: 'CommandRejected',
          data: {
            themeId: 'thm_9',
            code: 'VALIDATION_FAILED',
            message: '2 problems found',
            issues,
            issueCount: 23,
            at,
          },
          streamId: activityStream('st_a3'),
          storeId: 'st_a3',
        },
      ])
      .thenRows(t, {
        developer_activity: [{ outcome: 'rejected', theme_id: 'thm_9', issues, issue_count: 23, lines: [] }],
      })
  })

  await t.test("a change's lines name the section and setting, with the value before and after", async (t) => {
    const store = 'st_a4'
    const section = { id: 'hero-1', type: 'hero', settings: { heading: 'Hello' } }
    await spec
      .given([
        {
          type: 'SectionUpdated',
          data: {
            sectionId: 'hero-1',
            target: { template: 'home' },
            section: section as never,
            changed: ['settings.heading'],
            previous: { heading: 'Welcome' },
            at,
          },
          streamId: themeStream('thm_2'),
          storeId: store,
          command: 'edit',
        },
        {
          type: 'ThemeTokensUpdated',
          data: {
            tokens: { ...defaultThemeDocument().theme, primaryColor: '#AA0000' },
            changed: ['primaryColor'],
            previous: { primaryColor: '#111111' },
            at,
          },
          streamId: themeStream('thm_2'),
          storeId: store,
          command: 'edit',
        },
        {
          type: 'ThemeCreated',
          data: {
            themeId: 'thm_3',
            storeId: store,
            name: 'Copy of Spring',
            provider: 'claude',
            document: defaultThemeDocument(),
            duplicatedFrom: 'thm_2',
            at,
          },
          streamId: themeStream('thm_3'),
          storeId: store,
          command: 'copy',
        },
      ])
      .thenRows(t, {
        developer_activity: [
          {
            theme_id: 'thm_2',
            lines: [
              { text: 'Hero › Heading', from: { text: '“Welcome”' }, to: { text: '“Hello”' } },
              {
                text: 'Theme style › Main colour',
                from: { text: '#111111', colour: '#111111' },
                to: { text: '#aa0000', colour: '#aa0000' },
              },
            ],
            issues: null,
          },
          { theme_id: 'thm_3', lines: [{ text: 'Copied from', theme: 'thm_2' }] },
        ],
      })
  })
})
