// What every HTTP adapter records about a request for the one log line written when it completes.
declare module 'fastify' {
  interface FastifyRequest {
    audit: { credentialId?: string; storeId?: string; operationId?: string; errorCode?: string }
  }
}

export {}
