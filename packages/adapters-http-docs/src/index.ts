export { buildDocsApp, type DocsAppOptions } from './docs-app.js';
