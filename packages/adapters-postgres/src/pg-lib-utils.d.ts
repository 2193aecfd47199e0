// node-postgres's own value serialization (the `./lib/*` entry of its package exports), which its Query applies to
// the parameters of every statement: a StatementPipeline sends its parameters exactly as a query would.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
