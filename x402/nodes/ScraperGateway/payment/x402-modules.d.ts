/* eslint-disable import-x/no-unresolved -- type-only paths into the packages' CommonJS typings, which their `exports` map does not list; nothing imports them at run time */
/**
 * tsconfig uses `moduleResolution: node`, which ignores package.json `exports`, so the `@x402/*` subpath entry
 * points the nodes import have no types under it. These point the names the nodes use at the CommonJS typings
 * they resolve to at run time (Node, jest and esbuild honour `exports`). Named re-exports, so they merge with
 * the simulator's wider declarations of the same modules in the test program.
 */
declare module '@x402/core/client' {
	export { x402Client, x402HTTPClient } from '@x402/core/dist/cjs/client';
}
declare module '@x402/core/types' {
	export type { PaymentPayload, PaymentRequired, PaymentRequirements, ResourceInfo } from '@x402/core/dist/cjs/types';
}
declare module '@x402/evm/exact/client' {
	export { ExactEvmScheme } from '@x402/evm/dist/cjs/exact/client';
}
