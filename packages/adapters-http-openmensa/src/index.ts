export { maxExportDays, type MenuExportUseCases } from './menu-exports/menu-export-routes.js';
export { openMensaPlugin, type OpenMensaPluginOptions } from './openmensa-plugin.js';
export { openMensaV2Prefix, openMensaV2Url } from './v2/v2-paths.js';
export type { OpenMensaV2UseCases } from './v2/v2-routes.js';
