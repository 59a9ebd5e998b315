/* eslint-disable import-x/no-unresolved -- these name the packages' internal typings on purpose: the TypeScript import resolver honours `exports` and so cannot see them, while tsc (node10 resolution) does */
/**
 * The project's tsconfig uses `moduleResolution: node` (node10), which ignores package.json `exports`, so the
 * `@x402/*` subpath entry points have no types under it (TS2307). These declarations point each subpath at the
 * CommonJS typings it resolves to at run time (Node and jest do honour `exports`).
 */
declare module '@x402/core/facilitator' {
	export * from '@x402/core/dist/cjs/facilitator';
}
declare module '@x402/core/http' {
	export * from '@x402/core/dist/cjs/http';
}
declare module '@x402/core/types' {
	export * from '@x402/core/dist/cjs/types';
}
declare module '@x402/core/client' {
	export * from '@x402/core/dist/cjs/client';
}
declare module '@x402/evm/exact/facilitator' {
	export * from '@x402/evm/dist/cjs/exact/facilitator';
}
declare module '@x402/evm/exact/client' {
	export * from '@x402/evm/dist/cjs/exact/client';
}
// Its package.json `types` points at a file the package does not ship.
declare module '@x402/fetch' {
	export * from '@x402/fetch/dist/cjs';
}
