// Shortcuts for the theme-check tests: REST calls with a key, a fresh draft, a batch, the checks
// over REST and over MCP.
import type { ChecksResult } from '../../src/checks/finding.ts'
import { callTool } from '../mcp/support.ts'
import { bearer, type TestApp } from '../support/app.ts'

export type Op = Record<string, unknown>

export function client(app: TestApp, key = app.keyA) {
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const res = await app.app.inject({
      method,
      url,
      headers: bearer(key),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    })
    return { status: res.statusCode, body: res.json() as Record<string, any> }
  }
  return {
    call,
    async draft(name = 'Checks fixture'): Promise<{ id: string; version: number }> {
      const res = await call('POST', '/api/v1/themes', { name, provider: 'tests' })
      if (res.status !== 201) throw new Error(`createTheme: ${res.status} ${JSON.stringify(res.body)}`)
      return { id: res.body.data.id, version: res.body.data.version }
    },
    async batch(id: string, operations: Op[], dryRun = false) {
      const res = await call('POST', `/api/v1/themes/${id}/batch`, { operations, dryRun })
      if (res.status !== 200) throw new Error(`batch: ${res.status} ${JSON.stringify(res.body)}`)
      return res.body.data as { theme: { version: number }; findings: ChecksResult['findings']; dryRun: boolean }
    },
    async rest(id: string, version?: number): Promise<ChecksResult> {
      const res = await call('GET', `/api/v1/themes/${id}/checks${version === undefined ? '' : `?version=${version}`}`)
      if (res.status !== 200) throw new Error(`getThemeChecks: ${res.status} ${JSON.stringify(res.body)}`)
      return res.body.data as ChecksResult
    },
    async mcp(id: string, version?: number): Promise<ChecksResult> {
      const result = await callTool(app, key, 'check_theme', version === undefined ? { id } : { id, version })
      if (result.isError) throw new Error(`check_theme: ${JSON.stringify(result.structuredContent)}`)
      return result.structuredContent as ChecksResult
    },
  }
}

export const rulesOf = (result: ChecksResult) => [...new Set(result.findings.map((f) => f.rule))].sort()
