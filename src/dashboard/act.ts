import type { FastifyRequest } from 'fastify'
import { merchantCaller, type MerchantSession } from '../auth/merchant-session.ts'
import type { AppError } from '../errors.ts'
import { invoke, type InputParts } from '../operations/invoke.ts'
import type { OperationDefinition, Outcome } from '../operations/operation.ts'
import type { Services } from '../services.ts'

// A merchant action is the same operation REST and MCP run, with the merchant as the caller and
// channel `dashboard`: same validation, same command handlers, same audit entry.
export async function act<O>(
  services: Services,
  request: FastifyRequest,
  session: MerchantSession,
  // biome-ignore lint/suspicious/noExplicitAny: any operation's input; invoke parses it
  op: OperationDefinition<any, O>,
  input: InputParts,
): Promise<Outcome<O>> {
  const caller = merchantCaller(session, { requestId: request.id, channel: 'dashboard' })
  return (await invoke(op, services, {
    authentication: { ok: true, caller },
    input,
    logError: (error) =>
      request.log.error({ err: error, requestId: request.id, operationId: op.operationId }, 'dashboard action failed'),
  })) as Outcome<O>
}

// The same, for the pages whose forms show only refusals: a failure of the service itself
// (INTERNAL, UNAVAILABLE; already logged) becomes the dashboard's error page instead.
export async function actOrFail<O>(
  services: Services,
  request: FastifyRequest,
  session: MerchantSession,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  op: OperationDefinition<any, O>,
  input: InputParts,
): Promise<Outcome<O>> {
  const outcome = await act(services, request, session, op, input)
  if (!outcome.ok && (outcome.error.code === 'INTERNAL' || outcome.error.code === 'UNAVAILABLE'))
    throw new Error(`${op.operationId} failed: ${outcome.error.code}`)
  return outcome
}

// A refusal as a sentence for the page.
export function explain(error: AppError | { code: string; message: string }): string {
  switch (error.code) {
    case 'THEME_IS_ACTIVE':
      return 'The live theme cannot be archived. Publish another theme first.'
    case 'THEME_NOT_EDITABLE':
      return 'Only drafts can be changed. Duplicate this theme to edit a copy.'
    case 'VERSION_CONFLICT':
      return 'The theme changed while you were looking at it. Reload the page and try again.'
    case 'NOT_FOUND':
      return 'That theme does not exist in this store.'
    default:
      return `${error.message} (${error.code})`
  }
}
