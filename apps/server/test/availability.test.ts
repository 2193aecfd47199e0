import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeAvailabilityThroughTheService } from './support/availability-scenario.js';

const folder = mkdtempSync(join(tmpdir(), 'meals-availability-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeAvailabilityThroughTheService('SQLite', () => `sqlite:${join(folder, 'meals.db')}`);
