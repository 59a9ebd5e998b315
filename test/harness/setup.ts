/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- jest setup runs in plain Node */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// n8n-core reads and writes its instance settings in the user folder: keep tests away from the real ~/.n8n.
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-test-'));
