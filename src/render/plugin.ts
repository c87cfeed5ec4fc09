import type { FastifyInstance } from 'fastify'
import type { Services } from '../services.ts'

// Storefront and preview pages (issue 5), at the root.
export async function storefrontPlugin(_app: FastifyInstance, _services: Services): Promise<void> {}
