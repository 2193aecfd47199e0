// Neither can be stored as text faithfully: SQLite's length() stops at a NUL (so a leading one broke the CHECK: a
// 500), an unpaired surrogate has no UTF-8 form (it was stored mangled), and PostgreSQL refuses both in TEXT.
const unstorableAsText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when every adapter can store and give back the string unchanged: no NUL, no unpaired surrogate. */
export function isStorableText(value: string): boolean {
  return !unstorableAsText.test(value);
}
