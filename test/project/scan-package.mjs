// Runs n8n's verification scanner (@n8n/scan-community-package) on a folder, offline, the way it runs after
// downloading a package: `node scan-package.mjs <dir> tarball|source`. Prints one JSON line with the error and
// warning counts and the scanner's own report. ESM, because the scanner is; the jest test runs it as a child.
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const [dir, leg] = process.argv.slice(2);
// The scanner's two legs: the published tarball's JavaScript, and the attested source's node and credential files.
const patterns = leg === 'source' ? SOURCE_FILE_PATTERNS : ['**/*.js', 'package.json'];
const result = await analyzePackage(dir, patterns);
const summary = /\((\d+) errors?, (\d+) warnings?\)/.exec(result.details ?? '');
process.stdout.write(
	`${JSON.stringify({
		passed: result.passed,
		message: result.message ?? null,
		errors: summary ? Number(summary[1]) : result.passed ? 0 : null,
		warnings: summary ? Number(summary[2]) : 0,
		patterns,
		details: result.details ?? '',
	})}\n`,
);
