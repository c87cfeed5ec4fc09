import type { KyselyPlugin, RootOperationNode } from 'kysely'
import type { ChangeFeed } from '../../src/notifications/change-feed.ts'

// A kysely plugin that calls `onQuery` with every query it sees: tests count statements with it.
export function queryObserver(onQuery: (node: RootOperationNode) => void): KyselyPlugin {
  return {
    transformQuery: (args) => {
      onQuery(args.node)
      return args.node
    },
    transformResult: async (args) => args.result,
  }
}

// A kysely plugin that calls `onStatement` after every statement that returned, built or compiled
// (prepared hot reads are executed as compiled queries, which transformQuery never sees).
export function statementCounter(onStatement: () => void): KyselyPlugin {
  return {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      onStatement()
      return args.result
    },
  }
}

// The real change feed with a switch that makes it report unhealthy (the caches' fail-closed path).
export function switchableFeed(real: ChangeFeed): { feed: ChangeFeed; setUnhealthy: (unhealthy: boolean) => void } {
  let unhealthy = false
  return {
    feed: {
      kind: real.kind,
      healthy: () => !unhealthy && real.healthy(),
      subscribe: real.subscribe.bind(real),
      settled: () => real.settled(),
      close: () => real.close(),
    },
    setUnhealthy: (v) => {
      unhealthy = v
    },
  }
}
