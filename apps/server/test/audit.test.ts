import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeAuditThroughTheService } from './support/audit-scenario.js';

const folder = mkdtempSync(join(tmpdir(), 'meals-audit-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeAuditThroughTheService('SQLite', () => `sqlite:${join(folder, 'meals.db')}`);
