#!/usr/bin/env node
// Compiles the gateway simulator's contracts (test/simulator/gateway/contracts/*.sol) with the registry's
// `solc` package and writes one JSON artifact per contract next to its source. The simulator loads these
// artifacts; it never compiles at run time. Run after editing a .sol file: `node scripts/compile-token.mjs`.
// `--check` compiles and fails when a committed artifact differs (for CI).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const contractsDir = join(root, 'test/simulator/gateway/contracts');
const contracts = [
	{ file: 'UsdcToken.sol', name: 'UsdcToken' },
	{ file: 'Multicall3.sol', name: 'Multicall3' },
];
// Cancun: what every anvil build supports; newer defaults of solc may emit opcodes an older anvil lacks.
const evmVersion = 'cancun';

const sources = Object.fromEntries(
	contracts.map(({ file }) => [file, { content: readFileSync(join(contractsDir, file), 'utf8') }]),
);
const input = {
	language: 'Solidity',
	sources,
	settings: {
		evmVersion,
		optimizer: { enabled: true, runs: 200 },
		// No metadata hash: the bytecode then depends only on source and settings.
		metadata: { bytecodeHash: 'none' },
		outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
	},
};

const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
for (const e of output.errors ?? []) process.stderr.write(`${e.formattedMessage}\n`);
if (errors.length > 0) process.exit(1);

const check = process.argv.includes('--check');
let stale = false;
for (const { file, name } of contracts) {
	const compiled = output.contracts[file][name];
	const artifact = {
		contractName: name,
		sourceFile: relative(root, join(contractsDir, file)),
		sourceSha256: createHash('sha256').update(sources[file].content).digest('hex'),
		compiler: `solc ${solc.version()}`,
		settings: { evmVersion, optimizer: input.settings.optimizer },
		abi: compiled.abi,
		bytecode: `0x${compiled.evm.bytecode.object}`,
		deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
	};
	const target = join(contractsDir, `${name}.json`);
	const text = `${JSON.stringify(artifact, null, '\t')}\n`;
	if (check) {
		let current = '';
		try {
			current = readFileSync(target, 'utf8');
		} catch {
			current = '';
		}
		if (current !== text) {
			process.stderr.write(`${relative(root, target)} is stale: run node scripts/compile-token.mjs\n`);
			stale = true;
		}
		continue;
	}
	writeFileSync(target, text);
	process.stdout.write(`wrote ${relative(root, target)} (${artifact.deployedBytecode.length / 2 - 1} bytes runtime)\n`);
}
if (stale) process.exit(1);
