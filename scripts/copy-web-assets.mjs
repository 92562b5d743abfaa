#!/usr/bin/env node
// The build's last step: the web face's pages, scripts and styles (src/web/assets, plain files
// served as they are) go beside the compiled server in dist/web/assets.
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const to = join(root, 'dist', 'web', 'assets');
rmSync(to, { recursive: true, force: true });
cpSync(join(root, 'src', 'web', 'assets'), to, { recursive: true });
