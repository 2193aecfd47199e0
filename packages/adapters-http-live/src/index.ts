export { livePlugin, type LivePluginOptions } from './live-plugin.js';
export { defaultLiveOptions, type LiveOptions, type LiveRoutesOptions, sseSubscriber } from './live-routes.js';
