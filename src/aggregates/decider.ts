import type { Result } from './result.ts'
import type { StreamName } from './stream-name.ts'

// An aggregate as the command handler loads it: the stream it lives in and how its events fold
// into its state. Pure; the handler (src/commands/handle-command.ts) does the reading and writing.
export type Aggregate<State, Event> = {
  stream: StreamName
  initialState: State
  evolve: (state: State, event: Event) => State
}

// An aggregate with its decision: a command and the current state give the events to append, or
// a refusal. Context is what the decision needs from outside the stream (time, catalogue ids).
export type Decider<Command, State, Event, Context = { at: string }> = Aggregate<State, Event> & {
  decide: (command: Command, state: State, context: Context) => Result<Event[]>
}

export const fold = <State, Event>(
  aggregate: Aggregate<State, Event>,
  events: Iterable<Event>,
  from?: State,
): State => {
  let state = from ?? aggregate.initialState
  for (const e of events) state = aggregate.evolve(state, e)
  return state
}
